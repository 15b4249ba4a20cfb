// The audit store's contract on SQLite and on PostgreSQL.
import { auditStoreContract } from './audit-store.contract.js';
import { storeBackends } from './store-backends.js';

for (const backend of storeBackends()) auditStoreContract(backend);
