-- Held-out workload for bench/optimize/programs.sh: a different schema and
-- other features than train.sql (text search with LIKE, window functions,
-- a view, a trigger, common table expressions, string and date functions).
CREATE TABLE post(id INTEGER PRIMARY KEY, author TEXT, body TEXT, at TEXT, score INT);
CREATE TABLE audit(post INT, old INT, new INT);
CREATE TRIGGER post_score AFTER UPDATE OF score ON post
  BEGIN INSERT INTO audit VALUES (new.id, old.score, new.score); END;
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 5000)
INSERT INTO post SELECT i, 'author' || (i % 113),
  'post ' || i || ' about ' || substr('alphabetagammadeltaepsilon', 1 + i % 20, 5) || ' and more',
  date('2020-01-01', '+' || (i % 900) || ' days'), (i * 7 % 101) - 50 FROM s;
CREATE INDEX post_author ON post(author, at);
CREATE VIEW busy AS SELECT author, count(*) AS n, avg(score) AS mean FROM post GROUP BY author;
SELECT author, n, round(mean, 2) FROM busy ORDER BY n DESC, author LIMIT 5;
SELECT count(*) FROM post WHERE body LIKE '%gamma%' AND at >= '2021-01-01';
SELECT author, at, score, rank() OVER (PARTITION BY author ORDER BY score DESC) AS r FROM post
  WHERE author IN ('author1', 'author2', 'author3') ORDER BY author, r LIMIT 10;
UPDATE post SET score = score + 1 WHERE id % 10 = 0;
SELECT count(*), sum(new - old) FROM audit;
WITH m(month, n) AS (SELECT strftime('%Y-%m', at), count(*) FROM post GROUP BY 1)
SELECT month, n, sum(n) OVER (ORDER BY month) FROM m ORDER BY month DESC LIMIT 3;
SELECT upper(author), group_concat(id, ',') FROM (SELECT author, id FROM post WHERE score > 45 ORDER BY id)
  GROUP BY author ORDER BY 1 LIMIT 3;
DELETE FROM post WHERE score < -45;
SELECT count(*), min(at), max(at) FROM post;
