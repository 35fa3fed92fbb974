import { describe, expect, it } from 'vitest';
import { APP_RESOURCE_TYPE, appView, isOriginShaped, sameHostOrigins, staticResourcesOf, withBareMaps } from './apps.rules.js';

describe('isOriginShaped', () => {
  it.each([
    ['https://app.example', true],
    ['http://localhost:3000', true],
    ['http://[::1]:8080', true],
    ['https://App.example', false],
    ['https://app.example/', false],
    ['ftp://app.example', false],
    ['app.example', false],
  ])('%s -> %s', (origin, shaped) => {
    expect(isOriginShaped(origin)).toBe(shaped);
  });
});

describe('sameHostOrigins', () => {
  it('names the host under both schemes, with its port', () => {
    expect(sameHostOrigins('http://app.example:8080')).toEqual(['https://app.example:8080', 'http://app.example:8080']);
  });
});

describe('appView', () => {
  it('lists origins, client ids and environments (sorted)', () => {
    const createdAt = new Date(0);
    const view = appView({
      id: 'app_1',
      name: 'Notes',
      createdAt,
      origins: [{ origin: 'https://a.example' }],
      clients: [{ clientId: 'cli_1' }],
      deployments: [{ env: 'prod' }, { env: 'dev' }],
    });
    expect(view).toEqual({
      id: 'app_1',
      name: 'Notes',
      origins: ['https://a.example'],
      clientIds: ['cli_1'],
      environments: ['dev', 'prod'],
      createdAt,
    });
  });
});

describe('staticResourcesOf', () => {
  it('starts with the app resource, then each static slug of each type', () => {
    const resources = {
      team: { static: ['lobby', 'help'], visibility: { default: 'discoverable' as const } },
      doc: { static: [], visibility: { default: 'members' as const } },
    };
    expect(staticResourcesOf({ resources }).map(r => `${r.type}/${r.slug}`)).toEqual([`${APP_RESOURCE_TYPE}/app`, 'team/lobby', 'team/help']);
  });
});

describe('withBareMaps', () => {
  it("answers nothing for Object.prototype's names", () => {
    const schema = withBareMaps({ version: 1, resources: { team: 1 }, tables: {}, buckets: {} });
    expect((schema.resources as Record<string, unknown>).constructor).toBeUndefined();
    expect((schema.tables as Record<string, unknown>).toString).toBeUndefined();
    expect((schema.buckets as Record<string, unknown>).hasOwnProperty).toBeUndefined();
    expect(schema.resources).toEqual(Object.assign(Object.create(null), { team: 1 }));
  });
});
