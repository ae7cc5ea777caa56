import { getMetadataStorage } from 'class-validator';

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type Lookup = MetadataStorage['getTargetValidationMetadatas'];
type Metadata = ReturnType<Lookup>;
type Grouped = ReturnType<MetadataStorage['groupByPropertyName']>;

const cached = new WeakSet<MetadataStorage>();

/**
 * Makes class-validator's lookups of a DTO's rules answer from memory after the first request.
 * For every object it validates (each body, query and nested DTO), class-validator 0.15 finds the
 * rules of the class's ancestors by testing the class against every decorated class of the process
 * with `instanceof`, then groups the rules by property again
 * (typestack/class-validator#2686): about half the cost of validating a small body. A class's
 * rules, its own and inherited, are all registered when the class is defined, before anything can
 * be validated against it, so the answers never change; the memory is dropped anyway if a rule is
 * registered later.
 */
export function cacheValidationMetadata(): void {
  const storage = getMetadataStorage();
  if (cached.has(storage)) return;
  cached.add(storage);
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addRule = storage.addValidationMetadata.bind(storage);
  let found = new WeakMap<object, Map<string, Metadata>>();
  let grouped = new WeakMap<Metadata, Grouped>();

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    let byOptions = found.get(target);
    if (!byOptions) found.set(target, (byOptions = new Map()));
    const key = `${schema}\n${always}\n${strictGroups}\n${groups?.join('\n') ?? ''}`;
    let rules = byOptions.get(key);
    if (!rules) byOptions.set(key, (rules = lookUp(target, schema, always, strictGroups, groups)));
    return rules;
  };
  // The grouping of a memorised lookup's rules, by the lookup's very array.
  storage.groupByPropertyName = (rules) => {
    let byProperty = grouped.get(rules);
    if (!byProperty) grouped.set(rules, (byProperty = group(rules)));
    return byProperty;
  };
  storage.addValidationMetadata = (rule) => {
    found = new WeakMap();
    grouped = new WeakMap();
    addRule(rule);
  };
}
