export function countCases(output: string, code: number): { passed: number; failed: number };
export function countChecks(output: string, code: number, mustPass?: ReadonlySet<string>): { passed: number; failed: number; unscored: number };
