-- A city bicycle-sharing service (invented for the second analyst blind set, issue 45). Data: AnalystBlindData2.bikeshare.
-- People: rider (names, email, phone, birth year). One step from a person: trip, app_session (no primary key: a
-- rider's history of app sessions). Two steps: damage_report (via trip).
-- No person: station, bike, maintenance (work done on a bike).
CREATE TABLE station (
    station_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    district TEXT NOT NULL,
    docks INTEGER NOT NULL,
    opened_on TEXT NOT NULL
);
CREATE TABLE bike (
    bike_id INTEGER PRIMARY KEY,
    serial TEXT NOT NULL,
    kind TEXT NOT NULL,
    model TEXT NOT NULL,
    commissioned_on TEXT NOT NULL
);
CREATE TABLE maintenance (
    maintenance_id INTEGER PRIMARY KEY,
    bike_id INTEGER NOT NULL REFERENCES bike (bike_id),
    serviced_on TEXT NOT NULL,
    work TEXT NOT NULL,
    cost NUMERIC NOT NULL
);
CREATE TABLE rider (
    rider_id INTEGER PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT,
    phone TEXT,
    birth_year INTEGER,
    district TEXT NOT NULL,
    plan TEXT NOT NULL,
    signed_up_on TEXT NOT NULL
);
CREATE TABLE trip (
    trip_id INTEGER PRIMARY KEY,
    rider_id INTEGER NOT NULL REFERENCES rider (rider_id),
    bike_id INTEGER NOT NULL REFERENCES bike (bike_id),
    start_station_id INTEGER NOT NULL REFERENCES station (station_id),
    end_station_id INTEGER NOT NULL REFERENCES station (station_id),
    started_on TEXT NOT NULL,
    start_hour INTEGER NOT NULL,
    minutes INTEGER NOT NULL,
    distance_km NUMERIC NOT NULL,
    fare NUMERIC NOT NULL
);
CREATE TABLE damage_report (
    report_id INTEGER PRIMARY KEY,
    trip_id INTEGER NOT NULL REFERENCES trip (trip_id),
    reported_on TEXT NOT NULL,
    kind TEXT NOT NULL,
    repair_cost NUMERIC NOT NULL
);
CREATE TABLE app_session (
    rider_id INTEGER NOT NULL REFERENCES rider (rider_id),
    opened_on TEXT NOT NULL,
    platform TEXT NOT NULL,
    screens INTEGER NOT NULL
);
