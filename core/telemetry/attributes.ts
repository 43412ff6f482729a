// The span attribute names of OpenTelemetry's stable semantic conventions the
// platform sets, written out so that the always-loaded hooks load nothing
// beyond the API.
export const HTTP_REQUEST_METHOD = 'http.request.method';
export const HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
export const HTTP_ROUTE = 'http.route';
export const URL_PATH = 'url.path';
export const URL_SCHEME = 'url.scheme';
export const URL_FULL = 'url.full';
export const SERVER_ADDRESS = 'server.address';
export const DB_SYSTEM_NAME = 'db.system.name';
export const DB_OPERATION_NAME = 'db.operation.name';
export const DB_QUERY_TEXT = 'db.query.text';
export const POSTGRESQL = 'postgresql';
