import type { ApprovedAuthorization, CardActivity } from '../cards/card-activity';
import type { PanEntryMode, VelocityLimitFilters, VelocityLimitParameters } from './auth-rule-parameters';
import { velocityPeriodStart } from './velocity-period';

/** What a velocity limit has counted in its period so far: spend-velocity-impacting transactions and their amount, in cents. */
export interface VelocityUsage {
  readonly count: number;
  readonly amount: number;
}

/** The facts of a transaction a velocity filter reads. */
export interface VelocityFacts {
  readonly mcc: string;
  readonly country: string;
  readonly panEntryMode: PanEntryMode;
}

/** Whether a filter counts a transaction: in every include list given, in no exclude list. */
export function passesFilters(filters: VelocityLimitFilters | undefined, facts: VelocityFacts): boolean {
  if (!filters) return true;
  if (filters.include_countries && !filters.include_countries.includes(facts.country)) return false;
  if (filters.exclude_countries && filters.exclude_countries.includes(facts.country)) return false;
  if (filters.include_mccs && !filters.include_mccs.includes(facts.mcc)) return false;
  if (filters.exclude_mccs && filters.exclude_mccs.includes(facts.mcc)) return false;
  if (filters.include_pan_entry_modes && !filters.include_pan_entry_modes.includes(facts.panEntryMode)) return false;
  return true;
}

/**
 * What a card-scoped limit has counted: the card's approvals in the period that pass the filters and
 * still impact spend (not voided in full), at the amount each counts now.
 */
export function cardVelocityUsage(parameters: VelocityLimitParameters, activity: CardActivity, now: Date): VelocityUsage {
  const counted = activity.approvals.filter((approval) => inPeriod(parameters, approval, now) && !approval.voided && passesFilters(parameters.filters, approval));
  return { count: counted.length, amount: counted.reduce((sum, approval) => sum + approval.amount, 0) };
}

function inPeriod(parameters: VelocityLimitParameters, approval: ApprovedAuthorization, now: Date): boolean {
  const { from, inclusive } = velocityPeriodStart(parameters.period, now);
  return inclusive ? approval.at >= from : approval.at > from;
}

/**
 * Whether one more transaction of `amount` passes the limit: the count with it may not exceed
 * limit_count, nor the amount with it limit_amount. A transaction the filters leave out is not
 * limited at all.
 */
export function exceedsVelocityLimit(parameters: VelocityLimitParameters, usage: VelocityUsage, amount: number, facts: VelocityFacts): boolean {
  if (!passesFilters(parameters.filters, facts)) return false;
  const overCount = parameters.limit_count !== null && parameters.limit_count !== undefined && usage.count + 1 > parameters.limit_count;
  const overAmount = parameters.limit_amount !== null && parameters.limit_amount !== undefined && usage.amount + amount > parameters.limit_amount;
  return overCount || overAmount;
}
