import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { accountRoleSettingNames } from '../../src/envelope/account-role-settings.js';
import { docusignSpecUrl } from '../sandbox/helpers/docusign-spec.js';

describe('the settings of a permission profile', () => {
  it("are the v2.1 Swagger's accountRoleSettings, each but the …Metadata companions DocuSign writes itself", () => {
    const swagger = JSON.parse(readFileSync(docusignSpecUrl('esignature.rest.swagger-v2.1.json'), 'utf8')) as {
      definitions: { accountRoleSettings: { properties: Record<string, unknown> } };
    };
    const names = Object.keys(swagger.definitions.accountRoleSettings.properties).filter(
      (n) => !n.endsWith('Metadata'),
    );
    expect([...accountRoleSettingNames].sort()).toEqual(names.sort());
  });
});
