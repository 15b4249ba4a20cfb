// The instance registry's contract on SQLite and on PostgreSQL.
import { instanceRepositoryContract } from './instance-repository.contract.js';
import { storeBackends } from './store-backends.js';

for (const backend of storeBackends()) instanceRepositoryContract(backend);
