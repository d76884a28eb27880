export const root: string;
export function buildIfNeeded(): number;
