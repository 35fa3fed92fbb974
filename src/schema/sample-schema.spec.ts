import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import sample from '../../examples/sample-schema.js';
import { validateSchemaIR } from './index.js';

const sampleJson: unknown = JSON.parse(readFileSync(new URL('../../examples/sample-schema.json', import.meta.url), 'utf8'));

describe('examples/sample-schema', () => {
  it('matches examples/sample-schema.json (regenerate with `npx tsx examples/build-sample-json.ts`)', () => {
    expect(sampleJson).toEqual(sample);
  });

  it('survives IR -> JSON -> validateSchemaIR unchanged', () => {
    expect(validateSchemaIR(JSON.parse(JSON.stringify(sample)))).toEqual(sample);
  });

  it.each([
    ['team', { default: 'members', allow: ['members'] }, 'writer', []],
    ['room', { default: 'members', allow: ['members', 'unlisted', 'discoverable'] }, 'writer', []],
    ['forum', { default: 'discoverable', allow: ['discoverable'] }, 'reader', []],
    ['album', { default: 'unlisted', allow: ['unlisted'] }, 'reader', []],
    ['settings', { default: 'unlisted', allow: ['unlisted'] }, 'reader', ['global']],
  ])('declares %s with visibility %o, defaultRole %s and static %o', (type, visibility, defaultRole, slugs) => {
    expect(sample.resources[type]).toMatchObject({ visibility, defaultRole, static: slugs });
  });
});
