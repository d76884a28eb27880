/** What the tests read of the lint configuration (tests/unit/architecture-doc.test.ts). */
import type { Linter } from 'eslint';

/** A domain's entry files, without `.ts`. */
export declare const ENTRIES: string[];
/** The folders of lib/ that are not domains, each with the imports its files must not make. */
export declare const LAYERS: Record<string, (domains: string[]) => unknown[]>;
/** The other folders of lib/: the domains. */
export declare const DOMAINS: string[];

declare const config: Linter.Config[];
export default config;
