// The approval store's contract on SQLite and on PostgreSQL.
import { approvalStoreContract } from './approval-store.contract.js';
import { storeBackends } from './store-backends.js';

for (const backend of storeBackends()) approvalStoreContract(backend);
