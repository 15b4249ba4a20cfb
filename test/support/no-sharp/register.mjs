// `node --import ./test/support/no-sharp/register.mjs ...`: this process cannot load sharp, as on
// a host where neither a prebuilt nor a source build of sharp exists — through `import` (the
// resolve hook) and through `require` (kit/images loads sharp's CommonJS build).
import Module, { register } from 'node:module';

register('./resolve.mjs', import.meta.url);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'sharp' || request.startsWith('@img/sharp')) {
    const error = new Error(`Cannot find package '${request}' (simulated: no sharp on this host)`);
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  }
  return resolveFilename.call(this, request, ...rest);
};
