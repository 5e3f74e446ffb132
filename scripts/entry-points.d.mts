export declare const TRANSLATIONS: string[];
export declare const ENTRY_POINTS: Record<string, { source: string; build: string }>;
export declare function sourceAliases(root: URL): { find: RegExp; replacement: string }[];
