import { describe, expect, it } from 'vitest';
import { redactSecrets } from './logger.js';

const INVITE = `inv_${'A'.repeat(43)}`;
const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c3JfMSJ9.c2lnbmF0dXJl';

describe('redactSecrets: what never reaches a log line', () => {
  it.each([
    ['an invite code in a path', `{"path":"/_invite/${INVITE}"}`, '{"path":"/_invite/[redacted]"}'],
    ['a provider interaction (the consent challenge)', '{"path":"/idp/interaction/Ab3_x-9/login"}', '{"path":"/idp/interaction/[redacted]/login"}'],
    ['the authorization resume path', '{"path":"/idp/oauth2/auth/Ab3_x-9"}', '{"path":"/idp/oauth2/auth/[redacted]"}'],
    ['secret query parameters', '"/cb?code=abc&state=xyz&iss=https%3A%2F%2Fid"', '"/cb?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fid"'],
    ['a consent challenge query', '"/auth/consent?consent_challenge=q1w2e3"', '"/auth/consent?consent_challenge=[redacted]"'],
    ['a refresh token parameter', 'grant_type=refresh_token&refresh_token=r3fr3sh', 'grant_type=refresh_token&refresh_token=[redacted]'],
    ['a Gatehouse token anywhere', `"bad token gst_${'b'.repeat(43)} here"`, '"bad token gst_[redacted] here"'],
    [
      'an invite code in a message',
      `"Variable \\"$c\\" got invalid value \\"${INVITE}\\""`,
      '"Variable \\"$c\\" got invalid value \\"inv_[redacted]\\""',
    ],
    ['a JWT', `"jwt ${JWT}"`, '"jwt [redacted]"'],
    ['a bearer credential', '"authorization: Bearer opaque-token-123"', '"authorization: Bearer [redacted]"'],
    ['a URL password', '"redis://user:hunter2@127.0.0.1:6379"', '"redis://user:[redacted]@127.0.0.1:6379"'],
    [
      'secret JSON keys',
      '{"password":"p4ss","refresh_token":"r\\"t","cookie":"gh_session=x"}',
      '{"password":"[redacted]","refresh_token":"[redacted]","cookie":"[redacted]"}',
    ],
  ])('%s', (_, line, redacted) => {
    expect(redactSecrets(line)).toBe(redacted);
  });

  it('leaves what is not a secret alone: error codes, ids, ordinary paths and queries', () => {
    const line =
      '{"level":30,"err":{"code":"P2002","message":"unique"},"error":"invalid_argument","path":"/v1/resources/res_0123456789abcdef0123","q":"/v1/resources?type=team&limit=5","msg":"request"}';
    expect(redactSecrets(line)).toBe(line);
  });
});
