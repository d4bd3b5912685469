-- Training workload for bench/optimize/programs.sh: an order book, built
-- and queried through indexes, joins, aggregates and updates.
CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT, city TEXT, since INT);
CREATE TABLE item(id INTEGER PRIMARY KEY, title TEXT, price REAL, stock INT);
CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INT, item INT, qty INT, day INT);
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 3000)
INSERT INTO customer SELECT i, 'customer ' || (i * 7919 % 10007), 'city' || (i % 37), 2000 + i % 23 FROM s;
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 800)
INSERT INTO item SELECT i, 'item ' || hex(i * 2654435761 % 4294967296), (i * 37 % 1000) / 10.0, i % 50 FROM s;
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 12000)
INSERT INTO orders SELECT i, 1 + i * 31 % 3000, 1 + i * 17 % 800, 1 + i % 7, i % 365 FROM s;
CREATE INDEX orders_customer ON orders(customer);
CREATE INDEX orders_item ON orders(item, day);
CREATE INDEX customer_city ON customer(city);
SELECT c.city, count(*), sum(o.qty * i.price) FROM orders o JOIN customer c ON c.id = o.customer
  JOIN item i ON i.id = o.item GROUP BY c.city ORDER BY 3 DESC LIMIT 5;
SELECT i.title, sum(o.qty) AS n FROM orders o JOIN item i ON i.id = o.item
  WHERE o.day BETWEEN 100 AND 200 GROUP BY i.id ORDER BY n DESC LIMIT 5;
UPDATE item SET stock = stock - (SELECT sum(qty) FROM orders WHERE item = item.id AND day < 30);
DELETE FROM orders WHERE qty = 3 AND day % 2 = 0;
SELECT count(*), avg(qty), max(day) FROM orders WHERE customer IN (SELECT id FROM customer WHERE since > 2015);
SELECT name FROM customer WHERE id IN (SELECT customer FROM orders GROUP BY customer HAVING count(*) > 12)
  ORDER BY name LIMIT 5;
