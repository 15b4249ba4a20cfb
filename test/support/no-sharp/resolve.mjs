// Module resolve hook: `sharp` (and its platform packages) fail as an uninstalled package does.
export async function resolve(specifier, context, next) {
  if (specifier === 'sharp' || specifier.startsWith('@img/sharp')) {
    const error = new Error(
      `Cannot find package '${specifier}' (simulated: no sharp on this host)`,
    );
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}
