// The jail host registry's contract on SQLite and on PostgreSQL.
import { hostRepositoryContract } from './host-repository.contract.js';
import { storeBackends } from './store-backends.js';

for (const backend of storeBackends()) hostRepositoryContract(backend);
