/**
 * Names a fastify plugin. Fastify finds an unnamed plugin's name by walking
 * require's whole module cache at every register, and the sandbox registers
 * each API group twice (v2 and v2.1): in a process with many modules loaded
 * (a test suite starting a sandbox a file) that walk was a tenth of a
 * start's CPU. The name is what fastify shows for the plugin in its errors
 * and plugin tree.
 */
export function namedPlugin<T extends object>(name: string, plugin: T): T {
  (plugin as Record<symbol, unknown>)[displayName] = name;
  return plugin;
}

const displayName = Symbol.for('fastify.display-name');
