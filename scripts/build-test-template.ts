// Builds the migrated template the test databases are copied from
// (core/sdk/test-template.ts) before the tests start, so that the first test
// processes copy it instead of each building their own at once.
// Runs against the throwaway cluster of scripts/with-test-db.sh.
import { migratedTemplate } from '../core/sdk/test-template.ts';

const cluster = process.env.TEST_DATABASE_URL;
if (!cluster) throw new Error('TEST_DATABASE_URL is not set: run through scripts/with-test-db.sh');
console.log(`test database template ${await migratedTemplate(cluster)} is ready`);
