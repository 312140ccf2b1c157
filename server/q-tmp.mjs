import Database from 'better-sqlite3';
const db = new Database(process.argv[2], { readonly: true });
const t = (label, f) => { const a = process.hrtime.bigint(); const r = f(); console.log(label, (Number(process.hrtime.bigint() - a) / 1e6).toFixed(1), 'ms', Array.isArray(r) ? r.length : r); return r; };
const latest = db.prepare('SELECT MAX(listing_date) FROM day_counts').pluck().get();
const from = new Date(Date.parse(latest) - 56*86400e3*2).toISOString().slice(0,10);
t('rows', () => db.prepare('SELECT COUNT(*) FROM topic_day_counts').pluck().get());
const oldQ = `SELECT topic, listing_date AS day, n FROM topic_day_counts WHERE listing_date BETWEEN ? AND ? ORDER BY topic, listing_date`;
const newQ = `WITH RECURSIVE topics (topic) AS (SELECT MIN(topic) FROM topic_day_counts UNION ALL SELECT (SELECT MIN(c.topic) FROM topic_day_counts c WHERE c.topic > topics.topic) FROM topics WHERE topics.topic IS NOT NULL)
SELECT c.topic, c.listing_date AS day, c.n FROM topics JOIN topic_day_counts c ON c.topic = topics.topic AND c.listing_date BETWEEN ? AND ? ORDER BY c.topic, c.listing_date`;
const tot = `SELECT topic, SUM(n) AS n FROM topic_day_counts WHERE listing_date <= ? GROUP BY topic ORDER BY topic`;
for (let i = 0; i < 2; i++) {
  t('old days', () => db.prepare(oldQ).all(from, latest));
  t('new days', () => db.prepare(newQ).all(from, latest));
  t('totals', () => db.prepare(tot).all(latest));
}
