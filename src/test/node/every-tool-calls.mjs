// The calls every TypeScript driver makes: list the tools, then call each with arguments taken from the
// demo's own answers (a table it ranks, a column of that table, a drafted metric), so the calls follow the
// catalog; a missing field throws (exit 1) rather than falling back to a guess. Prints one JSON line per
// step: {"tools": [...]}, {"tool", "arguments", "result"} per call, then {"unplanned": [...]}.
export async function driveEveryTool(client) {
  const { tools } = await client.listTools();
  print({ tools });
  const listed = new Set(tools.map((t) => t.name));
  const called = new Set();

  async function call(name, args) {
    // callTool also validates structuredContent against the tool's outputSchema (the SDK does, and throws if not).
    const result = await client.callTool({ name, arguments: args });
    called.add(name);
    print({ tool: name, arguments: args, result });
    return result.structuredContent?.data ?? {};
  }

  await call('list_indexed_schemas', {});
  const ranked = await call('find_relevant_tables', { query: 'invoices paid by organizations' });
  const table = ranked.hits[0].qualified_name;
  const described = await call('describe_table', { qualified_name: table });
  const column = described.columns.find((c) => !c.primary_key).name;
  await call('describe_column', { qualified_name: `${table}.${column}` });
  await call('get_example_queries', { qualified_name: table });

  const entities = (await call('list_entities', {})).entities;
  const tableOf = new Map(entities.map((e) => [e.name, e.table]));
  await call('find_relevant_entities', { query: 'payments' });
  await call('describe_entity', { name: entities[0].name });
  const join = (await call('list_joins', {})).joins[0];
  await call('resolve_join', { entity_a: join.source_entity, entity_b: join.target_entity });
  await call('suggest_joins', { tables: [tableOf.get(join.source_entity), tableOf.get(join.target_entity)] });

  const metrics = (await call('list_metrics', {})).metrics;
  await call('find_relevant_metrics', { query: 'payments per month' });
  const drafted = metrics.filter((m) => m.validation_state === 'draft');
  const metric = drafted.find((m) => m.measure.agg === 'count');
  await call('get_metric', { name: metric.name });
  // SQL through the boundary: an aggregate over the ranked table, checked, then run.
  await call('validate_query', { sql: `SELECT count(*) AS n FROM ${table}` });
  await call('execute', { sql: `SELECT count(*) AS n FROM ${table}` });

  print({ unplanned: [...listed].filter((name) => !called.has(name)) });
}

export function print(value) {
  process.stdout.write(JSON.stringify(value) + '\n');
}
