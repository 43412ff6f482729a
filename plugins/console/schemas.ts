// The joi schemas of the console plugin's routes.
import { Joi } from 'agent-platform/sdk';

export const consoleFile = Joi.object({
  path: Joi.string().max(300).allow('').description('a section\'s path (answered with the console\'s page) or assets/<name>-<hash>.js|css'),
});

export const callbackQuery = Joi.object().pattern(/^[a-z_]{1,40}$/, Joi.string().max(4096).allow(''))
  .description('anything the page reads in the browser (the OIDC callback\'s `code` and `state`); the server reads none of it');

export const consoleConfig = Joi.object({
  oidc: Joi.object({
    issuer: Joi.string().description('OIDC_ISSUER_URL'),
    client_id: Joi.string().description('CONSOLE_OIDC_CLIENT_ID'),
  }).label('ConsoleOidc').allow(null).description('null: sign-in with an access token or a link only'),
  map: Joi.object({
    tile_url: Joi.string().description('CONSOLE_MAP_TILE_URL: the tiles of the Occurrences map, `{z}/{x}/{y}`'),
  }).label('ConsoleMap'),
}).label('ConsoleConfig');

export const linkExchange = Joi.object({
  code: Joi.string().max(128).pattern(/^[A-Za-z0-9_-]+$/).required().description('the code of a link `platform console link` printed (its `#link=` fragment)'),
}).label('ConsoleLinkExchange');

export const issuedToken = Joi.object({
  access_token: Joi.string(),
  token_type: Joi.string().valid('Bearer'),
  expires_in: Joi.number().integer(),
}).label('ConsoleLinkToken');

export const usage = Joi.object({
  since: Joi.date().description('the start of the week counted (Monday 00:00 UTC)'),
  counts: Joi.object().pattern(Joi.string(), Joi.number().integer())
    .description('rows created since then, by counter: `documents`, `chat_sessions`, `occurrences` where those plugins are loaded'),
}).label('TenantUsage');
