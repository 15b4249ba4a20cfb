import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshConnection, type StoreBackend } from './store-backends.js';

const T = 1_795_000_000_000;
const sealed = (n: number) => ({ ciphertext: `c${n}`, iv: `i${n}`, tag: `t${n}` });

/** Behaviour every SecretStore adapter must have. */
export function secretStoreContract(backend: StoreBackend): void {
  describe(`SecretStore contract: ${backend.name}`, { skip: backend.skip }, () => {
    it('returns what was put, per tenant, and null for an unknown name', async (t) => {
      const { secrets } = await freshConnection(backend, t);
      await secrets.put('acme', 'login', sealed(1), T);
      await secrets.put('globex', 'login', sealed(2), T);
      assert.deepEqual(await secrets.get('acme', 'login'), sealed(1));
      assert.deepEqual(await secrets.get('globex', 'login'), sealed(2));
      assert.equal(await secrets.get('acme', 'other'), null);
      assert.equal(await secrets.get('initech', 'login'), null);
    });

    it('replaces a secret put again under the same tenant and name', async (t) => {
      const { secrets } = await freshConnection(backend, t);
      await secrets.put('acme', 'login', sealed(1), T);
      await secrets.put('acme', 'login', sealed(3), T + 1);
      assert.deepEqual(await secrets.get('acme', 'login'), sealed(3));
      assert.deepEqual(await secrets.names('acme'), ['login']);
    });

    it("names only the tenant's secrets, in byte order", async (t) => {
      const { secrets } = await freshConnection(backend, t);
      for (const name of ['b', 'a', 'B', '_x']) await secrets.put('acme', name, sealed(1), T);
      await secrets.put('globex', 'c', sealed(1), T);
      assert.deepEqual(await secrets.names('acme'), ['B', '_x', 'a', 'b']);
      assert.deepEqual(await secrets.names('globex'), ['c']);
      assert.deepEqual(await secrets.names('initech'), []);
    });
  });
}
