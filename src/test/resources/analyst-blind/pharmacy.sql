-- A small pharmacy chain (invented for the analyst blind set, issue 45). Data: AnalystBlindData.pharmacy.
-- People: patient (names, email, phone, birth date). One step from a person: prescription, counter_sale
-- (no primary key: a patient's over-the-counter purchase history). Two steps: dispensing (via prescription).
-- No person: branch, supplier, drug.
CREATE TABLE branch (
    branch_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    city TEXT NOT NULL,
    opened_on TEXT NOT NULL
);
CREATE TABLE supplier (
    supplier_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    country TEXT NOT NULL
);
CREATE TABLE drug (
    drug_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    category TEXT NOT NULL,
    dosage_form TEXT NOT NULL,
    supplier_id INTEGER NOT NULL REFERENCES supplier (supplier_id),
    unit_price NUMERIC NOT NULL,
    is_generic INTEGER NOT NULL
);
CREATE TABLE patient (
    patient_id INTEGER PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT,
    phone TEXT,
    birth_date TEXT,
    city TEXT NOT NULL,
    insurance_plan TEXT NOT NULL,
    home_branch_id INTEGER NOT NULL REFERENCES branch (branch_id)
);
CREATE TABLE prescription (
    prescription_id INTEGER PRIMARY KEY,
    patient_id INTEGER NOT NULL REFERENCES patient (patient_id),
    issued_on TEXT NOT NULL,
    prescriber_specialty TEXT NOT NULL,
    refills_allowed INTEGER NOT NULL
);
CREATE TABLE dispensing (
    dispensing_id INTEGER PRIMARY KEY,
    prescription_id INTEGER NOT NULL REFERENCES prescription (prescription_id),
    drug_id INTEGER NOT NULL REFERENCES drug (drug_id),
    branch_id INTEGER NOT NULL REFERENCES branch (branch_id),
    dispensed_on TEXT NOT NULL,
    quantity INTEGER NOT NULL,
    amount NUMERIC NOT NULL,
    copay NUMERIC NOT NULL
);
CREATE TABLE counter_sale (
    patient_id INTEGER NOT NULL REFERENCES patient (patient_id),
    branch_id INTEGER NOT NULL REFERENCES branch (branch_id),
    drug_id INTEGER NOT NULL REFERENCES drug (drug_id),
    sold_on TEXT NOT NULL,
    quantity INTEGER NOT NULL,
    amount NUMERIC NOT NULL
);
