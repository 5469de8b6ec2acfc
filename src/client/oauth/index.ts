// DocuSign's account server: the JWT grant, userinfo, consent. Only re-exports.
export { parseOAuthBase, docusignAccountServers, type OAuthBase } from './oauth-base.js';
export { jwtScopes, readPrivateKey, signAssertion, type AssertionClaims } from './jwt-assertion.js';
export { consentUrl, defaultRedirectUri } from './consent-url.js';
export { grantError, type GrantContext, type OAuthErrorBody } from './grant-errors.js';
export { JwtTokenProvider, type AccessToken, type TokenProviderOptions } from './token-provider.js';
export {
  fetchUserInfo,
  chooseAccount,
  type UserInfo,
  type UserInfoAccount,
  type DiscoveredAccount,
} from './userinfo.js';
export { OAuthSession, type JwtGrantSettings, type OAuthSessionOptions } from './oauth-session.js';
