import { rolesOfApp } from './app-roles';
import { LEDGER_ROLES } from './ledger-app.module';

describe("an app's roles", () => {
  const projector = { name: 'projector', roles: ['projector', 'publisher'] } as const;

  it('are all of its own when LEDGER_ROLES is unset or blank', () => {
    expect(rolesOfApp(projector, undefined)).toEqual(['projector', 'publisher']);
    expect(rolesOfApp(projector, ' ')).toEqual(['projector', 'publisher']);
    expect(rolesOfApp({ name: 'server', roles: LEDGER_ROLES }, undefined)).toEqual(LEDGER_ROLES);
  });

  it('narrow to those LEDGER_ROLES names among them', () => {
    expect(rolesOfApp(projector, 'projector')).toEqual(['projector']);
    expect(rolesOfApp({ name: 'server', roles: LEDGER_ROLES }, 'webhooks,gateway')).toEqual(['gateway', 'webhooks']);
  });

  it("refuse another app's role, and an unknown one", () => {
    expect(() => rolesOfApp({ name: 'gateway', roles: ['gateway'] }, 'gateway,card-service')).toThrow(
      'LEDGER_ROLES: the gateway app runs only gateway, not card-service',
    );
    expect(() => rolesOfApp(projector, 'projectr')).toThrow(/unknown role projectr/);
  });
});
