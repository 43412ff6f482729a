// joi → JSON Schema 2020-12 (core/http/openapi/joi-schema.ts): each construct
// the route schemas use, and named schemas becoming components once.
import t from 'tap';
import Joi from 'joi';
import { toJsonSchema } from '../../core/http/openapi/joi-schema.ts';
import { Components } from '../../core/http/openapi/components.ts';

t.test('objects: required keys, additionalProperties from unknown(), pattern keys, forbidden keys left out', async (t) => {
  t.same(toJsonSchema(Joi.object({ a: Joi.string().required(), b: Joi.number(), gone: Joi.any().forbidden() })), {
    type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'], additionalProperties: false,
  });
  t.same(toJsonSchema(Joi.object({ a: Joi.string() }).unknown()), { type: 'object', properties: { a: { type: 'string' } } });
  t.same(toJsonSchema(Joi.object()), { type: 'object' }, 'an object of any keys');
  t.same(toJsonSchema(Joi.object().pattern(Joi.string(), Joi.number())), { type: 'object', additionalProperties: { type: 'number' } });
  t.same(toJsonSchema(Joi.object().pattern(/^x-/, Joi.string())), { type: 'object', patternProperties: { '^x-': { type: 'string' } } });
  t.same(toJsonSchema(Joi.object().min(1).max(3)), { type: 'object', minProperties: 1, maxProperties: 3 });
});

t.test('arrays, strings, numbers, booleans, dates, binaries', async (t) => {
  t.same(toJsonSchema(Joi.array().items(Joi.string()).min(1).max(5).unique()), { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5, uniqueItems: true });
  t.same(toJsonSchema(Joi.array().items(Joi.string(), Joi.number())), { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } });
  t.same(toJsonSchema(Joi.string().min(2).max(9).pattern(/^[a-z]+$/)), { type: 'string', minLength: 2, maxLength: 9, pattern: '^[a-z]+$' });
  t.same(toJsonSchema(Joi.string().email()), { type: 'string', format: 'email' });
  t.same(toJsonSchema(Joi.string().uri()), { type: 'string', format: 'uri' });
  t.same(toJsonSchema(Joi.string().uuid()), { type: 'string', format: 'uuid' });
  t.same(toJsonSchema(Joi.string().isoDate()), { type: 'string', format: 'date-time' });
  t.same(toJsonSchema(Joi.date()), { type: 'string', format: 'date-time' });
  t.same(toJsonSchema(Joi.date().iso()), { type: 'string', format: 'date-time' });
  t.same(toJsonSchema(Joi.number().integer().min(1).max(100)), { type: 'integer', minimum: 1, maximum: 100 });
  t.same(toJsonSchema(Joi.number().greater(0).less(1)), { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 });
  t.same(toJsonSchema(Joi.boolean()), { type: 'boolean' });
  t.same(toJsonSchema(Joi.binary()), { type: 'string', contentMediaType: 'application/octet-stream' });
  t.same(toJsonSchema(Joi.any()), {});
  t.same(toJsonSchema(Joi.any(), { multipart: true }), { type: 'string', contentMediaType: 'application/octet-stream' }, 'a multipart field of any type is a file');
});

t.test('valid() is an enum, allow(null) a null type, other allowed values an alternative', async (t) => {
  t.same(toJsonSchema(Joi.string().valid('a', 'b')), { type: 'string', enum: ['a', 'b'] });
  t.same(toJsonSchema(Joi.string().valid('a', 'b').allow(null)), { type: ['string', 'null'], enum: ['a', 'b', null] });
  t.same(toJsonSchema(Joi.number().allow(null)), { type: ['number', 'null'] });
  t.same(toJsonSchema(Joi.string().allow('')), { type: 'string' }, 'an allowed value the type already accepts changes nothing');
  t.same(toJsonSchema(Joi.string().min(1).allow('')), { anyOf: [{ type: 'string', minLength: 1 }, { enum: [''] }] });
  t.same(toJsonSchema(Joi.object({ a: Joi.string() }).allow(null)), {
    type: ['object', 'null'], properties: { a: { type: 'string' } }, additionalProperties: false,
  });
});

t.test('alternatives and when(): anyOf, oneOf with match(one), forbidden branches left out', async (t) => {
  t.same(toJsonSchema(Joi.alternatives().try(Joi.string(), Joi.number())), { anyOf: [{ type: 'string' }, { type: 'number' }] });
  t.same(toJsonSchema(Joi.alternatives().try(Joi.string(), Joi.number()).match('one')), { oneOf: [{ type: 'string' }, { type: 'number' }] });
  t.same(toJsonSchema(Joi.alternatives().conditional('k', { is: 'x', then: Joi.string(), otherwise: Joi.number() })), { anyOf: [{ type: 'string' }, { type: 'number' }] });
  const object = Joi.object({ k: Joi.string(), v: Joi.when('k', { is: 'x', then: Joi.string().required(), otherwise: Joi.forbidden() }) });
  t.same(toJsonSchema(object).properties, { k: { type: 'string' }, v: { type: 'string' } });
});

t.test('defaults, descriptions and examples', async (t) => {
  t.same(toJsonSchema(Joi.number().default(20).description('page size').example(50)), { type: 'number', description: 'page size', default: 20, examples: [50] });
  t.same(toJsonSchema(Joi.string().default(() => 'x')), { type: 'string' }, 'a computed default is not documented');
});

t.test('named schemas: one component per joi object, by id or label; copies with the same content share it', async (t) => {
  const components = new Components();
  const tenant = Joi.object({ id: Joi.string() }).label('Tenant');
  const list = Joi.object({ items: Joi.array().items(tenant), total: Joi.number() }).id('TenantList');
  t.same(toJsonSchema(list, { names: components }), { $ref: '#/components/schemas/TenantList' });
  t.same(components.schemas.TenantList, {
    type: 'object', properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Tenant' } }, total: { type: 'number' } }, additionalProperties: false,
  });
  t.same(toJsonSchema(tenant.required(), { names: components }), { $ref: '#/components/schemas/Tenant' }, 'a required copy is the same component');
  t.same(toJsonSchema(tenant.allow(null), { names: components }), { anyOf: [{ $ref: '#/components/schemas/Tenant' }, { type: 'null' }] });
  components.context = 'GetOther';
  t.same(toJsonSchema(Joi.object({ other: Joi.string() }).label('Tenant'), { names: components }), { $ref: '#/components/schemas/TenantOfGetOther' },
    'another schema with a taken name is qualified by its use');
  t.same(Object.keys(components.schemas).sort(), ['Tenant', 'TenantList', 'TenantOfGetOther']);
  t.same(toJsonSchema(Joi.string().label('name'), { names: components }), { type: 'string' }, 'a labelled scalar stays inline');
});
