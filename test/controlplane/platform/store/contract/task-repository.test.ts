// The task-trace store's contract on SQLite and on PostgreSQL.
import { storeBackends } from './store-backends.js';
import { taskRepositoryContract } from './task-repository.contract.js';

for (const backend of storeBackends()) taskRepositoryContract(backend);
