-- A winery's wine club (invented for the analyst blind set, issue 45). Data: AnalystBlindData.wineclub.
-- People: member (names, email, phone). One step from a person: club_order, tasting_visit (no primary key: a
-- member's visit history). Two steps: order_line (via club_order). No person: region, wine, stock.
CREATE TABLE region (
    region_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    country TEXT NOT NULL
);
CREATE TABLE wine (
    wine_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    varietal TEXT NOT NULL,
    color TEXT NOT NULL,
    vintage INTEGER NOT NULL,
    region_id INTEGER NOT NULL REFERENCES region (region_id),
    list_price NUMERIC NOT NULL,
    cost NUMERIC NOT NULL
);
CREATE TABLE stock (
    wine_id INTEGER NOT NULL REFERENCES wine (wine_id),
    warehouse TEXT NOT NULL,
    bottles INTEGER NOT NULL,
    PRIMARY KEY (wine_id, warehouse)
);
CREATE TABLE member (
    member_id INTEGER PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT,
    phone TEXT,
    city TEXT NOT NULL,
    tier TEXT NOT NULL,
    joined_on TEXT NOT NULL
);
CREATE TABLE club_order (
    order_id INTEGER PRIMARY KEY,
    member_id INTEGER NOT NULL REFERENCES member (member_id),
    ordered_on TEXT NOT NULL,
    channel TEXT NOT NULL,
    shipping_fee NUMERIC NOT NULL
);
CREATE TABLE order_line (
    order_id INTEGER NOT NULL REFERENCES club_order (order_id),
    line_no INTEGER NOT NULL,
    wine_id INTEGER NOT NULL REFERENCES wine (wine_id),
    bottles INTEGER NOT NULL,
    unit_price NUMERIC NOT NULL,
    PRIMARY KEY (order_id, line_no)
);
CREATE TABLE tasting_visit (
    member_id INTEGER NOT NULL REFERENCES member (member_id),
    visited_on TEXT NOT NULL,
    room TEXT NOT NULL,
    guests INTEGER NOT NULL,
    spend NUMERIC NOT NULL
);
