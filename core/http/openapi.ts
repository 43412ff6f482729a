// OpenAPI for every REST route tagged 'api', generated from the joi schemas
// by hapi-swagger, with the interactive UI at /docs.
import type { Server } from '@hapi/hapi';
import Inert from '@hapi/inert';
import Vision from '@hapi/vision';
import HapiSwagger from 'hapi-swagger';

export async function registerOpenApi(server: Server, version: string): Promise<void> {
  await server.register([
    Inert,
    Vision,
    {
      plugin: HapiSwagger,
      options: {
        info: { title: 'Agent Platform API', version },
        documentationPath: '/docs',
        jsonPath: '/docs/openapi.json',
        swaggerUIPath: '/docs/ui/',
        routesBasePath: '/docs/ui/',
        grouping: 'tags',
        securityDefinitions: {
          bearer: { type: 'apiKey', name: 'Authorization', in: 'header', description: 'Bearer <token>' },
          apiKey: { type: 'apiKey', name: 'X-API-Key', in: 'header' },
        },
        security: [{ bearer: [] }],
        auth: false,
      },
    },
  ]);
}
