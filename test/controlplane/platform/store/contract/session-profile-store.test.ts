// The session-profile store's contract on SQLite and on PostgreSQL.
import { sessionProfileStoreContract } from './session-profile-store.contract.js';
import { storeBackends } from './store-backends.js';

for (const backend of storeBackends()) sessionProfileStoreContract(backend);
