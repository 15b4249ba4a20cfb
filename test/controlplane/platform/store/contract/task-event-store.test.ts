// The task event store's contract on SQLite and on PostgreSQL.
import { storeBackends } from './store-backends.js';
import { taskEventStoreContract } from './task-event-store.contract.js';

for (const backend of storeBackends()) taskEventStoreContract(backend);
