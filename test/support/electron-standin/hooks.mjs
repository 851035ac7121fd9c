const standIn = new URL('./electron.ts', import.meta.url).href;

// Resolved through the rest of the chain, so tsx (registered first) still transpiles the stand-in.
export async function resolve(specifier, context, next) {
  return next(specifier === 'electron' ? standIn : specifier, context);
}
