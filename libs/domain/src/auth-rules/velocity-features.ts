import type { ExistingAuthRule } from './auth-rule';
import type { VelocityLimitFilters, VelocityLimitParameters, VelocityLimitPeriod } from './auth-rule-parameters';
import type { VelocityUsage } from './velocity-limit';

/**
 * Lithic's features of a rule (`retrieveFeatures`): what a velocity limit has counted so far in its
 * period, for the scope it counts (a card, or the account). One feature per distinct counter among the
 * versions that run (the current one and the draft): a draft that changes only the limit counts what
 * the current version counts (a card's exactly; an account's draft from its own first approval, on
 * its own counter), so the current version's is shown. Rules of other types count nothing.
 */
export interface VelocityFeature {
  readonly scope: 'CARD' | 'ACCOUNT';
  readonly period: VelocityLimitPeriod;
  readonly filters: VelocityLimitFilters;
  readonly value: VelocityUsage;
}

/** The velocity limits a rule runs (current, then draft), each with its version. */
export function runningVelocityLimits(rule: ExistingAuthRule): { readonly version: number; readonly parameters: VelocityLimitParameters }[] {
  if (rule.ruleType !== 'VELOCITY_LIMIT' || rule.state !== 'ACTIVE') return [];
  return [rule.current, rule.draft].flatMap((version) => (version === null ? [] : [{ version: version.version, parameters: version.parameters as VelocityLimitParameters }]));
}

export function velocityFeatures(limits: readonly { readonly parameters: VelocityLimitParameters; readonly usage: VelocityUsage }[]): VelocityFeature[] {
  const features = new Map<string, VelocityFeature>();
  for (const { parameters, usage } of limits) {
    const feature = { scope: parameters.scope, period: parameters.period, filters: parameters.filters ?? {}, value: usage };
    const key = JSON.stringify([feature.scope, feature.period, feature.filters]);
    if (!features.has(key)) features.set(key, feature);
  }
  return [...features.values()];
}
