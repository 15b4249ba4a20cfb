// The dashboard session store's contract on SQLite and on PostgreSQL.
import { dashboardSessionStoreContract } from './dashboard-session-store.contract.js';
import { storeBackends } from './store-backends.js';

for (const backend of storeBackends()) dashboardSessionStoreContract(backend);
