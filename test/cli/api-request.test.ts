/**
 * The arguments of `adsctl api METHOD PATH [KEY=VALUE...] [--data JSON]` (src/cli/api-request.ts),
 * as a table: what each command line sends, and the one line that refuses it before anything is
 * opened or sent.
 */
import { describe, expect, it } from 'vitest';
import { parseHandRequest, type HandArguments } from '../../src/cli/api-request.js';

const ACCOUNT = '/12/accounts/18ce54d4x5t';

describe('parseHandRequest sends', () => {
  it.each<[string, HandArguments, unknown]>([
    ['a GET without parameters', { method: 'GET', path: `${ACCOUNT}/campaigns`, pairs: [] }, { method: 'GET', path: `${ACCOUNT}/campaigns`, params: {} }],
    ['a method in any case', { method: 'put', path: `${ACCOUNT}/campaigns/c1`, pairs: ['entity_status=PAUSED'] }, { method: 'PUT', path: `${ACCOUNT}/campaigns/c1`, params: { entity_status: 'PAUSED' } }],
    ['a value split at its first =', { method: 'POST', path: `${ACCOUNT}/campaigns`, pairs: ['name=a=b', 'entity_status=PAUSED'] }, { method: 'POST', path: `${ACCOUNT}/campaigns`, params: { name: 'a=b', entity_status: 'PAUSED' } }],
    ['an empty value, which unsets', { method: 'PUT', path: `${ACCOUNT}/campaigns/c1`, pairs: ['end_time='] }, { method: 'PUT', path: `${ACCOUNT}/campaigns/c1`, params: { end_time: '' } }],
    ['a list as one comma-separated value', { method: 'GET', path: `${ACCOUNT}/line_items`, pairs: ['campaign_ids=c1,c2'] }, { method: 'GET', path: `${ACCOUNT}/line_items`, params: { campaign_ids: 'c1,c2' } }],
    ['the query string of PATH as parameters, decoded', { method: 'GET', path: `${ACCOUNT}/campaigns?with_deleted=true&q=a%20b`, pairs: ['count=5'] }, { method: 'GET', path: `${ACCOUNT}/campaigns`, params: { with_deleted: 'true', q: 'a b', count: '5' } }],
    ['a value with spaces and non-ASCII text as given', { method: 'POST', path: `${ACCOUNT}/campaigns`, pairs: ['name=Été sale 2027'] }, { method: 'POST', path: `${ACCOUNT}/campaigns`, params: { name: 'Été sale 2027' } }],
    ['a JSON body for POST, parameters beside it', { method: 'POST', path: `/12/batch/accounts/18ce54d4x5t/campaigns`, pairs: [], data: '[{"operation_type":"Delete","params":{"campaign_id":"c1"}}]' }, { method: 'POST', path: '/12/batch/accounts/18ce54d4x5t/campaigns', params: {}, json: [{ operation_type: 'Delete', params: { campaign_id: 'c1' } }] }],
    ['a JSON body for PUT', { method: 'PUT', path: `${ACCOUNT}/cards/x`, pairs: ['a=1'], data: ' {"name": "n"} ' }, { method: 'PUT', path: `${ACCOUNT}/cards/x`, params: { a: '1' }, json: { name: 'n' } }],
    ['DELETE', { method: 'DELETE', path: `${ACCOUNT}/campaigns/c1`, pairs: [] }, { method: 'DELETE', path: `${ACCOUNT}/campaigns/c1`, params: {} }],
  ])('%s', (_name, args, request) => {
    expect(parseHandRequest(args)).toEqual({ request });
  });
});

describe('parseHandRequest refuses, in one line', () => {
  it.each<[string, HandArguments, string]>([
    ['an unknown method', { method: 'PATCH', path: ACCOUNT, pairs: [] }, 'unknown method "PATCH": adsctl api sends GET, POST, PUT or DELETE'],
    ['an empty method', { method: '', path: ACCOUNT, pairs: [] }, 'unknown method "": adsctl api sends GET, POST, PUT or DELETE'],
    ['a path without a leading /', { method: 'GET', path: '12/accounts', pairs: [] }, 'PATH "12/accounts" must start with / (e.g. /12/accounts): it is below the endpoint\'s advertising base URL'],
    ['a URL for a path', { method: 'GET', path: 'https://ads-api.x.com/12/accounts', pairs: [] }, 'PATH "https://ads-api.x.com/12/accounts" is a URL: give the path below the endpoint (/12/accounts/...); the endpoint comes from --endpoint, ADSCTL_ENDPOINT or the manifests'],
    ['a path with a space', { method: 'GET', path: '/12/accounts/a b', pairs: [] }, 'PATH "/12/accounts/a b" holds a space or a control character: percent-encode it, or give the value as KEY=VALUE'],
    ['a path with a fragment', { method: 'GET', path: '/12/accounts#x', pairs: [] }, 'PATH "/12/accounts#x" has a fragment (#...), which is never sent: leave it out'],
    ['a path that climbs out of the base URL', { method: 'GET', path: '/12/../_emulator/stats', pairs: [] }, 'PATH "/12/../_emulator/stats" has a . or .. segment: give the path as the API names it'],
    ['a parameter without =', { method: 'GET', path: ACCOUNT, pairs: ['entity_status'] }, '"entity_status" is not KEY=VALUE: parameters are written name=value (entity_status=PAUSED), an empty value as name='],
    ['a parameter without a name', { method: 'GET', path: ACCOUNT, pairs: ['=PAUSED'] }, '"=PAUSED": the name before = is empty'],
    ['a name that is not one', { method: 'GET', path: ACCOUNT, pairs: ['entity status=PAUSED'] }, '"entity status=PAUSED": "entity status" is not a parameter name (letters, digits and _)'],
    ['a name given twice', { method: 'GET', path: ACCOUNT, pairs: ['count=1', 'count=2'] }, '"count=2": count is given twice; a list is one comma-separated value (count=ONE,TWO)'],
    ['a name in the query and as KEY=VALUE', { method: 'GET', path: `${ACCOUNT}?count=1`, pairs: ['count=2'] }, '"count=2": count is given twice; a list is one comma-separated value (count=ONE,TWO)'],
    ['an OAuth parameter', { method: 'GET', path: ACCOUNT, pairs: ['oauth_token=x'] }, '"oauth_token=x": oauth_ parameters belong to the signature, which adsctl makes; leave them out'],
    ['an OAuth parameter in the query', { method: 'GET', path: `${ACCOUNT}?OAUTH_NONCE=1`, pairs: [] }, 'the query of PATH (OAUTH_NONCE=...): oauth_ parameters belong to the signature, which adsctl makes; leave them out'],
    ['a JSON body for GET', { method: 'GET', path: ACCOUNT, pairs: [], data: '{}' }, '--data sends a JSON body, which only POST and PUT take; give the parameters of GET as KEY=VALUE'],
    ['a JSON body for DELETE', { method: 'delete', path: ACCOUNT, pairs: [], data: '{}' }, '--data sends a JSON body, which only POST and PUT take; give the parameters of DELETE as KEY=VALUE'],
    ['a body that is not JSON, without quoting it', { method: 'POST', path: ACCOUNT, pairs: [], data: '{"email": secret@example.com}' }, '--data is not valid JSON at line 1, column 11: give one JSON value, e.g. --data \'[{"operation_type":"Update","params":{...}}]\''],
    ['a body with its fault on a later line', { method: 'POST', path: ACCOUNT, pairs: [], data: '[\n  {"a": 1},\n  {"b": 2,}\n]' }, '--data is not valid JSON at line 3, column 11: give one JSON value, e.g. --data \'[{"operation_type":"Update","params":{...}}]\''],
    ['a body cut short', { method: 'POST', path: ACCOUNT, pairs: [], data: '[{"a": 1}' }, '--data is not valid JSON: give one JSON value, e.g. --data \'[{"operation_type":"Update","params":{...}}]\''],
    ['an empty body', { method: 'POST', path: ACCOUNT, pairs: [], data: '' }, '--data is not valid JSON: give one JSON value, e.g. --data \'[{"operation_type":"Update","params":{...}}]\''],
  ])('%s', (_name, args, problem) => {
    const parsed = parseHandRequest(args);
    expect(parsed).toEqual({ problem });
    expect(problem).not.toContain('\n');
  });
});
