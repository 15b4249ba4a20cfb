// The sealed-secret store's contract on SQLite and on PostgreSQL.
import { secretStoreContract } from './secret-store.contract.js';
import { storeBackends } from './store-backends.js';

for (const backend of storeBackends()) secretStoreContract(backend);
