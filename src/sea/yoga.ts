// Stands in for the "yoga-layout" package inside the single executable (an esbuild alias):
// the package's entry awaits the WebAssembly module at top level, which a CommonJS bundle
// cannot do. Ink only lays out after initYoga() has filled this object in.
import { loadYoga } from 'yoga-layout/load';

export * from 'yoga-layout/load';

const Yoga = {} as Awaited<ReturnType<typeof loadYoga>>;
export default Yoga;

export async function initYoga(): Promise<void> {
  Object.assign(Yoga, await loadYoga());
}
