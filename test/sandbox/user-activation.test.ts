import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSandboxApp } from '../../src/sandbox/index.js';
import { defaultSeedIds } from '../../src/sandbox/seed/default-seed.js';
import { authHeader, seedCredentials } from './helpers/api.js';

// A user added through the API without a password (DocuSign's eg043 adds its
// agent so, with only an activation access code) chooses one on the page its
// activation link opens, as at DocuSign; without it they could never sign in,
// and the consent page their JWT login leads to asks for it.

const accountPath = `/restapi/v2.1/accounts/${defaultSeedIds.accountId}`;
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildSandboxApp();
});
afterAll(async () => app.close());

async function addUser(
  email: string,
  password?: string,
  activationAccessCode?: string,
): Promise<{ userId: string; link: string }> {
  const created = await app.inject({
    method: 'POST',
    url: `${accountPath}/users`,
    headers: authHeader(),
    payload: { newUsers: [{ userName: 'Agent Smith', email, activationAccessCode, password }] },
  });
  expect(created.statusCode, created.body).toBe(201);
  const userId = created.json<{ newUsers: Array<{ userId: string }> }>().newUsers[0]!.userId;
  const outbox = await app.inject({ url: `/sandbox/outbox?format=json&to=${encodeURIComponent(email)}` });
  const message = outbox
    .json<{ messages: Array<{ kind: string; links: string[] }> }>()
    .messages.find((m) => m.kind === 'user-activation');
  expect(message, `an invitation to ${email}`).toBeDefined();
  return { userId, link: new URL(message!.links[0]!).pathname };
}

/** GET …/users/{userId} signed in as that user (email and password): the status code. */
async function signInAs(email: string, password: string, userId: string): Promise<number> {
  const answer = await app.inject({
    url: `${accountPath}/users/${userId}`,
    headers: authHeader({ ...seedCredentials, username: email, password }),
  });
  return answer.statusCode;
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('activation link of a user added without a password', () => {
  it('asks for a password, activates with it (single use), and the user then signs in with it', async () => {
    const email = 'agent.nopass@example.com';
    const { userId, link } = await addUser(email, undefined, 'activation-1');
    // The code is for the activation page, not for the users API to show.
    const shown = await app.inject({ url: `${accountPath}/users/${userId}`, headers: authHeader() });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain('activation-1');

    // Opening the link shows the form (the code, a password), and does not use the link up.
    const opened = await app.inject({ url: link });
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain('name="password"');
    expect(opened.body).toContain('name="activationAccessCode"');
    expect(opened.body).toContain(`action="${link}"`);
    expect((await app.inject({ url: link })).body).toContain('name="password"');

    // Too short: refused, the form again, the link still valid.
    const short = await app.inject({
      method: 'POST',
      url: link,
      headers: form,
      payload: 'activationAccessCode=activation-1&password=short',
    });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('at least 8 characters');
    // Without the code, or a wrong one: refused.
    for (const payload of [
      'password=agent-password-1',
      'activationAccessCode=activation-2&password=agent-password-1',
    ]) {
      const wrong = await app.inject({ method: 'POST', url: link, headers: form, payload });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.body).toContain('The activation code is not right.');
    }

    const sent = await app.inject({
      method: 'POST',
      url: link,
      headers: form,
      payload: 'activationAccessCode=activation-1&password=agent-password-1',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.body).toContain('Account activated');
    expect(await signInAs(email, 'agent-password-1', userId)).toBe(200);
    expect(await signInAs(email, 'another-password', userId)).toBe(401);

    // Single use, the form as the link.
    expect(
      (await app.inject({ method: 'POST', url: link, headers: form, payload: 'password=x-password-2' })).statusCode,
    ).toBe(410);
    expect((await app.inject({ url: link })).statusCode).toBe(410);
  });

  it('a user added with a password is activated by opening the link, as before; the form is refused', async () => {
    const email = 'agent.withpass@example.com';
    const { userId, link } = await addUser(email, 'given-password-1');
    const refused = await app.inject({ method: 'POST', url: link, headers: form, payload: 'password=other-password' });
    expect(refused.statusCode).toBe(400);
    const opened = await app.inject({ url: link });
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain('Account activated');
    expect(await signInAs(email, 'given-password-1', userId)).toBe(200);
    expect(
      (
        await app.inject({
          url: '/sandbox/activate/forged',
          method: 'POST',
          headers: form,
          payload: 'password=abcdefgh1',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('a user added with a password and an activation code gives the code only, then signs in with their password', async () => {
    const email = 'agent.code@example.com';
    const { userId, link } = await addUser(email, 'given-password-2', 'code-7');
    const opened = await app.inject({ url: link });
    expect(opened.body).toContain('name="activationAccessCode"');
    expect(opened.body).not.toContain('name="password"');
    expect(await signInAs(email, 'given-password-2', userId)).toBe(401);
    const wrong = await app.inject({
      method: 'POST',
      url: link,
      headers: form,
      payload: 'activationAccessCode=code-8',
    });
    expect(wrong.statusCode).toBe(400);
    const sent = await app.inject({ method: 'POST', url: link, headers: form, payload: 'activationAccessCode=code-7' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await signInAs(email, 'given-password-2', userId)).toBe(200);
  });
});
