-- Blind set for issue 46: a food-delivery platform. Deterministic generated data (no random()).
-- Traps: test restaurants (is_test on the parent of orders, items, refunds, reviews), delisted restaurants
-- (history must stay), soft-deleted customers, statuses (delivered / in_transit sold; cancelled, refunded,
-- failed, draft not), several currencies in food_order.currency, a courier ping table without a primary key.
CREATE TABLE city (city_id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, country_code CHAR(2) NOT NULL);
CREATE TABLE restaurant (restaurant_id INT PRIMARY KEY, name VARCHAR(60) NOT NULL,
    city_id INT NOT NULL REFERENCES city (city_id), cuisine VARCHAR(20) NOT NULL,
    is_test BOOLEAN NOT NULL DEFAULT FALSE, delisted_at TIMESTAMP);
CREATE TABLE customer (customer_id INT PRIMARY KEY, first_name VARCHAR(40) NOT NULL, last_name VARCHAR(40) NOT NULL,
    email VARCHAR(80) NOT NULL, phone VARCHAR(20), city_id INT REFERENCES city (city_id),
    created_at TIMESTAMP NOT NULL, deleted_at TIMESTAMP);
CREATE TABLE courier (courier_id INT PRIMARY KEY, full_name VARCHAR(60) NOT NULL, phone VARCHAR(20), vehicle VARCHAR(10) NOT NULL);
CREATE TABLE food_order (order_id INT PRIMARY KEY, restaurant_id INT NOT NULL REFERENCES restaurant (restaurant_id),
    customer_id INT NOT NULL REFERENCES customer (customer_id), courier_id INT REFERENCES courier (courier_id),
    status VARCHAR(12) NOT NULL, currency CHAR(3) NOT NULL, subtotal NUMERIC(10,2) NOT NULL,
    delivery_fee NUMERIC(8,2) NOT NULL, tip NUMERIC(8,2) NOT NULL, placed_at TIMESTAMP NOT NULL);
CREATE TABLE order_item (item_id INT PRIMARY KEY, order_id INT NOT NULL REFERENCES food_order (order_id),
    dish_name VARCHAR(40) NOT NULL, quantity INT NOT NULL, unit_price NUMERIC(8,2) NOT NULL);
CREATE TABLE refund (refund_id INT PRIMARY KEY, order_id INT NOT NULL REFERENCES food_order (order_id),
    amount NUMERIC(10,2) NOT NULL, reason VARCHAR(30) NOT NULL, refunded_at TIMESTAMP NOT NULL);
CREATE TABLE review (review_id INT PRIMARY KEY, order_id INT NOT NULL REFERENCES food_order (order_id),
    rating INT NOT NULL, created_at TIMESTAMP NOT NULL);
CREATE TABLE courier_location_ping (courier_id INT NOT NULL REFERENCES courier (courier_id),
    pinged_at TIMESTAMP NOT NULL, lat NUMERIC(8,5) NOT NULL, lon NUMERIC(8,5) NOT NULL);

INSERT INTO city VALUES (1, 'Berlin', 'DE'), (2, 'Munich', 'DE'), (3, 'Paris', 'FR'), (4, 'London', 'GB'),
    (5, 'Manchester', 'GB'), (6, 'Warsaw', 'PL');

INSERT INTO restaurant
SELECT i, CASE WHEN i IN (29, 30) THEN 'QA Test Kitchen ' || i ELSE 'Restaurant ' || i END,
       (i - 1) % 6 + 1, (ARRAY['pizza', 'sushi', 'burger', 'curry', 'salad'])[(i * 3) % 5 + 1],
       i IN (29, 30), CASE WHEN i % 7 = 0 THEN TIMESTAMP '2025-03-01' END
FROM generate_series(1, 30) i;

INSERT INTO customer
SELECT i, (ARRAY['Anna', 'Ben', 'Chloe', 'David', 'Eva', 'Felix', 'Greta', 'Hugo'])[i % 8 + 1],
       (ARRAY['Schmidt', 'Martin', 'Nowak', 'Smith', 'Dubois', 'Jones', 'Weber'])[i % 7 + 1] || i,
       'customer' || i || '@example.com', '+49170' || lpad(i::text, 6, '0'), i % 6 + 1,
       TIMESTAMP '2023-06-01' + (i || ' days')::interval, CASE WHEN i % 25 = 0 THEN TIMESTAMP '2025-08-01' END
FROM generate_series(1, 400) i;

INSERT INTO courier
SELECT i, 'Courier ' || (ARRAY['Ali', 'Bea', 'Carl', 'Dora', 'Emil'])[i % 5 + 1] || ' ' || i, '+44700' || lpad(i::text, 6, '0'),
       (ARRAY['bike', 'scooter', 'car'])[i % 3 + 1]
FROM generate_series(1, 40) i;

INSERT INTO food_order
SELECT i, r.restaurant_id, (i * 13) % 400 + 1, (i * 3) % 40 + 1,
       (ARRAY['delivered', 'delivered', 'delivered', 'delivered', 'delivered', 'delivered', 'delivered',
              'delivered', 'delivered', 'delivered', 'delivered', 'delivered', 'delivered', 'delivered',
              'in_transit', 'cancelled', 'refunded', 'failed', 'draft', 'delivered'])[i % 20 + 1],
       CASE c.country_code WHEN 'GB' THEN 'GBP' WHEN 'PL' THEN 'PLN' ELSE 'EUR' END,
       0, 1.99 + (i % 3), (i % 5),
       TIMESTAMP '2024-01-01' + ((i * 97) % (730 * 24) || ' hours')::interval
FROM generate_series(1, 6000) i
JOIN restaurant r ON r.restaurant_id = (i * 7) % 30 + 1
JOIN city c ON c.city_id = r.city_id;

INSERT INTO order_item
SELECT (o.order_id - 1) * 2 + k, o.order_id,
       (ARRAY['Margherita', 'Salmon roll', 'Cheeseburger', 'Korma', 'Caesar', 'Fries', 'Lemonade'])[(o.order_id + k) % 7 + 1],
       1 + (o.order_id + k) % 3,
       CASE o.currency WHEN 'PLN' THEN 4 ELSE 1 END * (4.50 + ((o.order_id * k * 31) % 900) / 100.0)
FROM food_order o CROSS JOIN generate_series(1, 2) k;

UPDATE food_order o SET subtotal = s.total
FROM (SELECT order_id, SUM(quantity * unit_price) total FROM order_item GROUP BY order_id) s
WHERE s.order_id = o.order_id;

-- Full refunds of refunded orders, half refunds of some delivered ones.
INSERT INTO refund
SELECT o.order_id, o.order_id, CASE WHEN o.status = 'refunded' THEN o.subtotal ELSE round(o.subtotal / 2, 2) END,
       CASE WHEN o.status = 'refunded' THEN 'order_not_received' ELSE 'missing_item' END,
       o.placed_at + INTERVAL '2 days'
FROM food_order o
WHERE o.status = 'refunded' OR (o.status = 'delivered' AND o.order_id % 50 = 3);

INSERT INTO review
SELECT o.order_id, o.order_id, 1 + (o.order_id * 7) % 5, o.placed_at + INTERVAL '1 day'
FROM food_order o WHERE o.status = 'delivered' AND o.order_id % 4 = 0;

INSERT INTO courier_location_ping
SELECT c, TIMESTAMP '2025-05-01' + (k * 17 || ' minutes')::interval, 52.5 + ((c * k) % 100) / 1000.0, 13.4 + ((c + k) % 100) / 1000.0
FROM generate_series(1, 40) c CROSS JOIN generate_series(1, 30) k;
