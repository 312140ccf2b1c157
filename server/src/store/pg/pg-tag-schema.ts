/*
 * Tags and the counts derived from them, on PostgreSQL: the tables of SQLite's migrations create-tags,
 * topic-counts and papers-to-tag, with the same meaning. SQLite keeps the derived tables exact with row
 * triggers; here they are statement triggers over transition tables, so a batch of 5,000 tags moves its
 * closure rows and counts in a few set-wise statements rather than 5,000 trigger calls. A tag row's key
 * (topic, paper) is never rewritten — the store deletes and inserts — so tag updates need no trigger.
 *
 * store_change counts committed writes that can change a reader's answer (TopicCountsStore.changeStamp):
 * a row updated inside the writing transaction, so a reader never sees a new stamp before the data it
 * stands for (a sequence would be visible before the commit).
 */
export const CREATE_TAGS_AND_COUNTS = `
CREATE TABLE papers_to_tag (paper_id text COLLATE "C" PRIMARY KEY);

CREATE TABLE paper_tags (
  topic    text COLLATE "C" NOT NULL,
  paper_id text COLLATE "C" NOT NULL REFERENCES papers (id) ON DELETE CASCADE,
  score    double precision NOT NULL,
  evidence text NOT NULL,  -- JSON: TagEvidence[]
  PRIMARY KEY (topic, paper_id)
);
CREATE INDEX paper_tags_paper ON paper_tags (paper_id);

CREATE TABLE topic_state (
  topic           text COLLATE "C" PRIMARY KEY,
  definition_hash text NOT NULL,
  tagged_at       text NOT NULL
);

CREATE TABLE topic_closure (
  topic   text COLLATE "C" NOT NULL,
  broader text COLLATE "C" NOT NULL,
  PRIMARY KEY (topic, broader)
);

CREATE TABLE paper_topics (
  paper_id     text COLLATE "C" NOT NULL,
  topic        text COLLATE "C" NOT NULL,
  listing_date text COLLATE "C",
  PRIMARY KEY (paper_id, topic)
);
CREATE INDEX paper_topics_latest ON paper_topics (topic, listing_date, paper_id);

CREATE TABLE topic_day_counts (
  topic        text COLLATE "C" NOT NULL,
  listing_date text COLLATE "C" NOT NULL,
  n            integer NOT NULL,
  PRIMARY KEY (topic, listing_date)
);

CREATE TABLE day_counts (
  listing_date text COLLATE "C" PRIMARY KEY,
  n            integer NOT NULL
);
INSERT INTO day_counts (listing_date, n)
SELECT listing_date, count(*) FROM papers WHERE listing_date IS NOT NULL GROUP BY listing_date;
INSERT INTO papers_to_tag (paper_id) SELECT id FROM papers;

CREATE TABLE store_change (id integer PRIMARY KEY CHECK (id = 1), n bigint NOT NULL);
INSERT INTO store_change (id, n) VALUES (1, 0);

CREATE FUNCTION quire_store_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE store_change SET n = n + 1 WHERE id = 1;
  RETURN NULL;
END $$;

-- Adds k papers to each (topic, day), or takes them away (k < 0), dropping counts that reach zero.
CREATE FUNCTION quire_move_topic_counts(moves jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO topic_day_counts (topic, listing_date, n)
  SELECT m ->> 0, m ->> 1, (m ->> 2)::integer FROM jsonb_array_elements(moves) m
  ON CONFLICT (topic, listing_date) DO UPDATE SET n = topic_day_counts.n + excluded.n;
  DELETE FROM topic_day_counts d USING jsonb_array_elements(moves) m
  WHERE d.topic = m ->> 0 AND d.listing_date = m ->> 1 AND d.n <= 0;
$$;

CREATE FUNCTION quire_move_day_counts(moves jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO day_counts (listing_date, n)
  SELECT m ->> 0, (m ->> 1)::integer FROM jsonb_array_elements(moves) m
  ON CONFLICT (listing_date) DO UPDATE SET n = day_counts.n + excluded.n;
  DELETE FROM day_counts d USING jsonb_array_elements(moves) m WHERE d.listing_date = m ->> 0 AND d.n <= 0;
$$;

-- Papers: a new or changed paper waits to be tagged; listed papers are counted per day; a new listing
-- date moves the paper's closure rows (and so its topic counts) with it.
CREATE FUNCTION quire_papers_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO papers_to_tag (paper_id) SELECT id FROM new_rows ON CONFLICT DO NOTHING;
  PERFORM quire_move_day_counts(coalesce((
    SELECT jsonb_agg(jsonb_build_array(listing_date, k)) FROM (
      SELECT listing_date, count(*) AS k FROM new_rows WHERE listing_date IS NOT NULL GROUP BY listing_date) g),
    '[]'));
  RETURN NULL;
END $$;

CREATE FUNCTION quire_papers_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO papers_to_tag (paper_id) SELECT id FROM new_rows ON CONFLICT DO NOTHING;
  PERFORM quire_move_day_counts(coalesce((
    SELECT jsonb_agg(jsonb_build_array(day, k)) FROM (
      SELECT day, sum(k)::integer AS k FROM (
        SELECT o.listing_date AS day, -1 AS k FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE o.listing_date IS DISTINCT FROM n.listing_date AND o.listing_date IS NOT NULL
        UNION ALL
        SELECT n.listing_date, 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE o.listing_date IS DISTINCT FROM n.listing_date AND n.listing_date IS NOT NULL) d
      GROUP BY day) g),
    '[]'));
  UPDATE paper_topics pt SET listing_date = n.listing_date
  FROM old_rows o JOIN new_rows n ON n.id = o.id
  WHERE pt.paper_id = n.id AND o.listing_date IS DISTINCT FROM n.listing_date;
  RETURN NULL;
END $$;

CREATE FUNCTION quire_papers_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM papers_to_tag s USING old_rows o WHERE s.paper_id = o.id;
  PERFORM quire_move_day_counts(coalesce((
    SELECT jsonb_agg(jsonb_build_array(listing_date, -k)) FROM (
      SELECT listing_date, count(*) AS k FROM old_rows WHERE listing_date IS NOT NULL GROUP BY listing_date) g),
    '[]'));
  DELETE FROM paper_topics pt USING old_rows o WHERE pt.paper_id = o.id;
  RETURN NULL;
END $$;

-- The closure of each paper's tags. A row goes when no tag of the paper implies its topic any more.
CREATE FUNCTION quire_tags_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO paper_topics (topic, paper_id, listing_date)
  SELECT DISTINCT c.broader, t.paper_id, p.listing_date
  FROM new_rows t JOIN topic_closure c ON c.topic = t.topic JOIN papers p ON p.id = t.paper_id
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION quire_tags_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM paper_topics pt
  USING (SELECT DISTINCT o.paper_id, c.broader FROM old_rows o JOIN topic_closure c ON c.topic = o.topic) gone
  WHERE pt.paper_id = gone.paper_id AND pt.topic = gone.broader
    AND NOT EXISTS (
      SELECT 1 FROM paper_tags t JOIN topic_closure c ON c.topic = t.topic
      WHERE t.paper_id = pt.paper_id AND c.broader = pt.topic);
  RETURN NULL;
END $$;

CREATE FUNCTION quire_closure_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO paper_topics (topic, paper_id, listing_date)
  SELECT DISTINCT n.broader, t.paper_id, p.listing_date
  FROM new_rows n JOIN paper_tags t ON t.topic = n.topic JOIN papers p ON p.id = t.paper_id
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION quire_closure_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM paper_topics pt
  USING (SELECT DISTINCT t.paper_id, o.broader FROM old_rows o JOIN paper_tags t ON t.topic = o.topic) gone
  WHERE pt.paper_id = gone.paper_id AND pt.topic = gone.broader
    AND NOT EXISTS (
      SELECT 1 FROM paper_tags t JOIN topic_closure c ON c.topic = t.topic
      WHERE t.paper_id = pt.paper_id AND c.broader = pt.topic);
  RETURN NULL;
END $$;

-- Listed papers per topic per listing day, from the closure rows.
CREATE FUNCTION quire_paper_topics_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM quire_move_topic_counts(coalesce((
    SELECT jsonb_agg(jsonb_build_array(topic, listing_date, k)) FROM (
      SELECT topic, listing_date, count(*) AS k FROM new_rows WHERE listing_date IS NOT NULL
      GROUP BY topic, listing_date) g),
    '[]'));
  RETURN NULL;
END $$;

CREATE FUNCTION quire_paper_topics_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM quire_move_topic_counts(coalesce((
    SELECT jsonb_agg(jsonb_build_array(topic, listing_date, -k)) FROM (
      SELECT topic, listing_date, count(*) AS k FROM old_rows WHERE listing_date IS NOT NULL
      GROUP BY topic, listing_date) g),
    '[]'));
  RETURN NULL;
END $$;

CREATE FUNCTION quire_paper_topics_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM quire_move_topic_counts(coalesce((
    SELECT jsonb_agg(jsonb_build_array(topic, day, k)) FROM (
      SELECT topic, day, sum(k)::integer AS k FROM (
        SELECT topic, listing_date AS day, -1 AS k FROM old_rows WHERE listing_date IS NOT NULL
        UNION ALL
        SELECT topic, listing_date, 1 FROM new_rows WHERE listing_date IS NOT NULL) d
      GROUP BY topic, day) g),
    '[]'));
  RETURN NULL;
END $$;

CREATE TRIGGER papers_inserted AFTER INSERT ON papers REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_papers_inserted();
CREATE TRIGGER papers_updated AFTER UPDATE ON papers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_papers_updated();
CREATE TRIGGER papers_deleted AFTER DELETE ON papers REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_papers_deleted();
CREATE TRIGGER paper_tags_inserted AFTER INSERT ON paper_tags REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_tags_inserted();
CREATE TRIGGER paper_tags_deleted AFTER DELETE ON paper_tags REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_tags_deleted();
CREATE TRIGGER topic_closure_inserted AFTER INSERT ON topic_closure REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_closure_inserted();
CREATE TRIGGER topic_closure_deleted AFTER DELETE ON topic_closure REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_closure_deleted();
CREATE TRIGGER paper_topics_inserted AFTER INSERT ON paper_topics REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_paper_topics_inserted();
CREATE TRIGGER paper_topics_deleted AFTER DELETE ON paper_topics REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_paper_topics_deleted();
CREATE TRIGGER paper_topics_updated AFTER UPDATE ON paper_topics REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quire_paper_topics_updated();

CREATE TRIGGER papers_changed AFTER INSERT OR UPDATE OR DELETE ON papers
  FOR EACH STATEMENT EXECUTE FUNCTION quire_store_changed();
CREATE TRIGGER paper_tags_changed AFTER INSERT OR UPDATE OR DELETE ON paper_tags
  FOR EACH STATEMENT EXECUTE FUNCTION quire_store_changed();
CREATE TRIGGER topic_closure_changed AFTER INSERT OR DELETE ON topic_closure
  FOR EACH STATEMENT EXECUTE FUNCTION quire_store_changed();
`;

/*
 * Tag writes made cheaper for a whole-store re-tag, whose cost grew with the store (a page of 2,000 papers
 * read, through the planner's choices, every paper and every day count):
 * - paper_tags without its foreign key to papers. The key checked each tag row on its own as it was written
 *   (a lookup and a share lock on the paper's row, so also a write to the papers' heap). The store only
 *   writes tags of papers it has just read, under the papers' write lock (PgTagStore leaves out a paper gone
 *   meanwhile, set-wise), and the cascade the key gave is now the papers' delete and truncate triggers'.
 * - New tags' closure rows look each paper's listing date up by its key: joined, the planner hashed every
 *   paper for each page (130 ms of the page's 1 s at 3 copies under load, growing with the store).
 * - A move of topic counts deletes only counts it took down to zero, through their key: it scanned every
 *   count, against each move, for counts at zero (a page's tags move only upwards).
 */
export const TAGS_WITHOUT_PAPER_KEY = `
ALTER TABLE paper_tags DROP CONSTRAINT paper_tags_paper_id_fkey;

CREATE OR REPLACE FUNCTION quire_papers_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM papers_to_tag s USING old_rows o WHERE s.paper_id = o.id;
  DELETE FROM paper_tags t USING old_rows o WHERE t.paper_id = o.id;
  PERFORM quire_move_day_counts(coalesce((
    SELECT jsonb_agg(jsonb_build_array(listing_date, -k)) FROM (
      SELECT listing_date, count(*) AS k FROM old_rows WHERE listing_date IS NOT NULL GROUP BY listing_date) g),
    '[]'));
  DELETE FROM paper_topics pt USING old_rows o WHERE pt.paper_id = o.id;
  RETURN NULL;
END $$;

-- TRUNCATE papers CASCADE (an operator's, a test's reset) emptied the tags through the key; now through this,
-- a DELETE: a TRUNCATE here fails when the same statement truncates paper_tags too.
CREATE FUNCTION quire_papers_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM paper_tags;
  RETURN NULL;
END $$;
CREATE TRIGGER papers_truncated AFTER TRUNCATE ON papers
  FOR EACH STATEMENT EXECUTE FUNCTION quire_papers_truncated();

CREATE OR REPLACE FUNCTION quire_tags_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO paper_topics (topic, paper_id, listing_date)
  SELECT DISTINCT c.broader, t.paper_id, p.listing_date
  FROM new_rows t JOIN topic_closure c ON c.topic = t.topic
  -- OFFSET 0 keeps the lookup a lookup: pulled up into a join, it is planned as a hash of every paper.
  JOIN LATERAL (SELECT p.listing_date FROM papers p WHERE p.id = t.paper_id OFFSET 0) p ON true
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION quire_move_topic_counts(moves jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO topic_day_counts (topic, listing_date, n)
  SELECT m ->> 0, m ->> 1, (m ->> 2)::integer FROM jsonb_array_elements(moves) m
  ON CONFLICT (topic, listing_date) DO UPDATE SET n = topic_day_counts.n + excluded.n;
  DELETE FROM topic_day_counts d
  WHERE d.n <= 0 AND (d.topic, d.listing_date) IN (
    SELECT m ->> 0, m ->> 1 FROM jsonb_array_elements(moves) m WHERE (m ->> 2)::integer < 0);
$$;
`;
