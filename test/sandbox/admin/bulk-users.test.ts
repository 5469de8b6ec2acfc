import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeedIds } from '../../../src/sandbox/seed/default-seed.js';
import { adminSandbox, type AdminSandbox } from './admin-helpers.js';

// Bulk user import (a CSV in; the per-row results CSV out) and the user list export.

let admin: AdminSandbox;
const org = defaultSeedIds.organizationId;
const main = defaultSeedIds.accountId;

beforeAll(async () => {
  admin = await adminSandbox();
});
afterAll(async () => admin.close());

function multipart(csv: string): { contentType: string; payload: Buffer } {
  const boundary = 'signrun-test-boundary';
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    payload: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file.csv"; filename="users.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    ),
  };
}

describe('bulk user import', () => {
  it('adds 1,000 users in one call; rejected rows are named at their CSV line in the results CSV', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => `${main},First${i},Last${i},user${i}@bulk.example,DS Sender`);
    rows[41] = `${main},Bad,Email,not-an-email,DS Sender`; // line 43
    rows[99] = `${main},No,Profile,nobody${99}@bulk.example,Chief Wizard`; // line 101
    const csv = ['AccountID,FirstName,LastName,UserEmail,PermissionSet', ...rows].join('\n');
    const started = await admin.call('POST', `/v2/organizations/${org}/imports/bulk_users/add`, {
      raw: multipart(csv),
    });
    expect(started.status, started.text).toBe(200);
    expect(started.json).toMatchObject({ type: 'add', status: 'queued', has_csv_results: false });
    admin.advance(1000);
    const done = await admin.call('GET', `/v2/organizations/${org}/imports/bulk_users/${started.json.id}`);
    expect(done.json).toMatchObject({
      status: 'completed',
      user_count: 1000,
      added_user_count: 998,
      error_count: 2,
      user_level_error_rollups: expect.arrayContaining([
        { error_type: 'invalid_useremail_address', count: 1 },
        { error_type: 'invalid_permissionset', count: 1 },
      ]),
      has_csv_results: true,
    });
    const results = await admin.call(
      'GET',
      `/v2/organizations/${org}/imports/bulk_users/${started.json.id}/results_csv`,
      { unchecked: true },
    );
    const lines = results.text.trim().split('\n');
    expect(lines[0]).toBe('AccountID,FirstName,LastName,UserEmail,PermissionSet,ProcessingResults');
    expect(lines[1]).toMatch(/,user_added$/);
    expect(lines[42]).toContain('invalid_useremail_address: line 43:');
    expect(lines[100]).toContain('invalid_permissionset: line 101:');
    const user = await admin.call('GET', `/v2/organizations/${org}/users?email=user7@bulk.example`);
    expect(user.json.users).toHaveLength(1);
    // The same file again adds nobody: each row already is a member.
    const again = await admin.call('POST', `/v2/organizations/${org}/imports/bulk_users/add`, {
      raw: { contentType: 'text/csv', payload: csv },
    });
    admin.advance(1000);
    const second = await admin.call('GET', `/v2/organizations/${org}/imports/bulk_users/${again.json.id}`);
    expect(second.json).toMatchObject({ added_user_count: 0, no_action_required_user_count: 998 });
  });

  it('refuses a file without a UserEmail column before queuing it', async () => {
    const r = await admin.call('POST', `/v2/organizations/${org}/imports/bulk_users/add`, {
      raw: { contentType: 'text/csv', payload: 'AccountID,FirstName\nx,y\n' },
    });
    expect(r.status).toBe(400);
    expect(r.json.error_description).toContain('useremail_column_header_missing');
  });

  it('closes memberships from a CSV', async () => {
    const started = await admin.call('POST', `/v2/organizations/${org}/imports/bulk_users/close`, {
      raw: { contentType: 'text/csv', payload: `AccountID,UserEmail\n${main},user1@bulk.example\n` },
    });
    admin.advance(1000);
    const done = await admin.call('GET', `/v2/organizations/${org}/imports/bulk_users/${started.json.id}`);
    expect(done.json).toMatchObject({ status: 'completed', closed_user_count: 1 });
    const user = await admin.call('GET', `/v2/organizations/${org}/users?email=user1@bulk.example&account_id=${main}`);
    expect(user.json.users[0]).toMatchObject({ membership_status: 'closed' });
  });
});

describe('user list export', () => {
  it('gives a CSV of the memberships once completed (DocuSign eg003)', async () => {
    const started = await admin.call('POST', `/v2/organizations/${org}/exports/user_list`, {
      body: { type: 'organization_memberships_export' },
    });
    expect(started.json).toMatchObject({ status: 'queued', results: [] });
    admin.advance(1000);
    const done = await admin.call('GET', `/v2/organizations/${org}/exports/user_list/${started.json.id}`);
    expect(done.json).toMatchObject({ status: 'completed', number_rows: 999 });
    const csv = await admin.call('GET', new URL(done.json.results[0].url).pathname.replace(/^\/management/, ''), {
      unchecked: true,
    });
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe(
      'AccountId,AccountName,UserId,UserName,FirstName,LastName,UserEmail,PermissionSet,UserStatus,MembershipStatus,MembershipCreatedOn',
    );
    expect(lines).toHaveLength(1000);
    expect(lines.some((l) => l.includes('sandbox@signrun.test') && l.includes('Account Administrator'))).toBe(true);
  });
});
