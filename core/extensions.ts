// Extension points: a plugin declares the points other plugins may add to
// (`extensionPoints` in definePlugin: forms' hydration targets, the apply
// kinds, source patterns, chat's suspending tools); every declaration is known
// before any plugin registers, so a contribution never depends on the order
// in which plugins register. The owner consumes its point in its register
// (`core.extensions.consume`): contributions made before are replayed, later
// ones reach it at once. A contribution to a point no loaded plugin declares
// is a boot error, as is a point with contributions that its owner never
// consumed. A point's value type is declared by merging into ExtensionPoints
// (`declare module 'agent-platform/sdk' { interface ExtensionPoints { 'forms.targets': HydrationTarget } }`).
import { PluginContractError } from './contract-error.ts';

/** Each point's contribution type, by point name; plugins add theirs by declaration merging. */
export interface ExtensionPoints {}

export type ExtensionPointName = keyof ExtensionPoints & string;

/** What a plugin's `extensionPoints` maps: the point's name (`<plugin>.<what>`) to what it is for. */
export type ExtensionPointDeclarations = Record<string, string>;

/** An extension point as `platform plugins` and the registry know it. */
export interface ExtensionPointInfo {
  name: string;
  owner: string;
  description: string;
}

type Consumer = (value: unknown, contributor: string) => void;

interface PointState extends ExtensionPointInfo {
  consumer?: Consumer;
  contributions: { value: unknown; contributor: string }[];
}

/** What a plugin reads as `core.extensions`. */
export interface ExtensionsApi {
  /** Whether a loaded plugin declares this point (contribute to an optional dependency's point only when it does). */
  has(point: string): boolean;
  /** Adds to another plugin's (or this plugin's own) extension point. */
  contribute<K extends ExtensionPointName>(point: K, value: ExtensionPoints[K]): void;
  /** The owner only: receives every contribution to its point, past and future, with the contributing plugin's name. */
  consume<K extends ExtensionPointName>(point: K, consumer: (value: ExtensionPoints[K], contributor: string) => void): void;
  /** The points declared by the loaded plugins. */
  points(): ExtensionPointInfo[];
}

const POINT_NAME = /^[a-z][a-z0-9-]*\.[a-z][a-z0-9.-]*$/;

/** The problem with a plugin's `extensionPoints` declaration, or undefined. */
export function extensionPointsProblem(plugin: string, declared: unknown): string | undefined {
  if (declared === undefined) return undefined;
  if (!declared || typeof declared !== 'object' || Array.isArray(declared)) return 'its extensionPoints is not an object of { name: description }';
  for (const [name, description] of Object.entries(declared)) {
    if (!POINT_NAME.test(name) || !name.startsWith(`${plugin}.`)) return `its extension point "${name}" is not named "${plugin}.<what>" (lowercase letters, digits, - and .)`;
    if (typeof description !== 'string' || description.trim() === '') return `its extension point "${name}" has no description`;
  }
  return undefined;
}

export class ExtensionRegistry {
  readonly #points = new Map<string, PointState>();

  /** Declares a plugin's points (the loader, before any plugin registers). */
  declare(owner: string, declared: ExtensionPointDeclarations | undefined): void {
    for (const [name, description] of Object.entries(declared ?? {})) {
      const taken = this.#points.get(name);
      if (taken) throw new PluginContractError(`extension point "${name}" is declared by plugin "${taken.owner}" and by plugin "${owner}"`);
      this.#points.set(name, { name, owner, description, contributions: [] });
    }
  }

  points(): ExtensionPointInfo[] {
    return [...this.#points.values()].map(({ name, owner, description }) => ({ name, owner, description }));
  }

  /** The registry as one plugin sees it: contributions are recorded under its name. */
  forPlugin(plugin: string): ExtensionsApi {
    return {
      has: (point) => this.#points.has(point),
      contribute: (point, value) => this.#contribute(plugin, point, value),
      consume: (point, consumer) => this.#consume(plugin, point, consumer as Consumer),
      points: () => this.points(),
    };
  }

  /** After every plugin registered: a point with contributions nobody consumed is a boot error. */
  assertConsumed(): void {
    for (const point of this.#points.values()) {
      if (!point.consumer && point.contributions.length > 0) {
        const from = [...new Set(point.contributions.map((c) => c.contributor))].join(', ');
        throw new PluginContractError(`plugin "${point.owner}" declares extension point "${point.name}" but never consumes it (contributions from ${from})`);
      }
    }
  }

  #point(plugin: string, name: string): PointState {
    const point = this.#points.get(name);
    if (!point) {
      throw new PluginContractError(
        `plugin "${plugin}" uses extension point "${name}", which no loaded plugin declares (contribute to an optional dependency's point only when core.extensions.has() says it is there)`,
      );
    }
    return point;
  }

  #contribute(plugin: string, name: string, value: unknown): void {
    const point = this.#point(plugin, name);
    point.contributions.push({ value, contributor: plugin });
    if (point.consumer) point.consumer(value, plugin);
  }

  #consume(plugin: string, name: string, consumer: Consumer): void {
    const point = this.#point(plugin, name);
    if (point.owner !== plugin) throw new PluginContractError(`plugin "${plugin}" consumes extension point "${name}", which is plugin "${point.owner}"'s`);
    if (point.consumer) throw new PluginContractError(`plugin "${plugin}" consumes extension point "${name}" twice`);
    point.consumer = consumer;
    for (const { value, contributor } of point.contributions) consumer(value, contributor);
  }
}
