import postgres from 'postgres';
import { dropOrphanDatabases } from '../helpers/database.ts';

/**
 * At the end of a run on PostgreSQL, drops the test databases its workers kept as spares (see
 * leaseTestDatabase): once a worker has exited, nothing else uses them.
 */
export default function setup() {
  return async () => {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) return;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    try {
      await dropOrphanDatabases(admin, true);
    } finally {
      await admin.end();
    }
  };
}
