// `node --import ./test/support/no-sharp/register.mjs ...`: this process cannot load sharp, as on
// a host where neither a prebuilt nor a source build of sharp exists.
import { register } from 'node:module';

register('./resolve.mjs', import.meta.url);
