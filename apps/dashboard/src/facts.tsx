import { Fragment, type ComponentChildren } from 'preact';

/** Named facts about one thing (a card, its balance, a transaction), as a description list. */
export function Facts({ facts }: { facts: readonly (readonly [term: string, value: ComponentChildren])[] }) {
  return (
    <dl class="facts">
      {facts.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
