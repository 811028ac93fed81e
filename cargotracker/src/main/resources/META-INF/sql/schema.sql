-- CargoTracker schema. Run at every start: IF NOT EXISTS keeps the data of earlier runs.
-- Plain SQL that H2 2.x and PostgreSQL 9.5+ both accept; one statement per line.
CREATE TABLE IF NOT EXISTS location (un_locode VARCHAR(5) NOT NULL PRIMARY KEY, name VARCHAR(80) NOT NULL);
CREATE TABLE IF NOT EXISTS voyage (voyage_number VARCHAR(20) NOT NULL PRIMARY KEY);
CREATE TABLE IF NOT EXISTS carrier_movement (voyage_number VARCHAR(20) NOT NULL REFERENCES voyage (voyage_number), position INTEGER NOT NULL, departure_location VARCHAR(5) NOT NULL, arrival_location VARCHAR(5) NOT NULL, departure_time TIMESTAMP NOT NULL, arrival_time TIMESTAMP NOT NULL, PRIMARY KEY (voyage_number, position));
CREATE INDEX IF NOT EXISTS carrier_movement_arrival ON carrier_movement (arrival_time);
CREATE TABLE IF NOT EXISTS cargo (tracking_id VARCHAR(16) NOT NULL PRIMARY KEY, origin VARCHAR(5) NOT NULL, booked_at TIMESTAMP NOT NULL, spec_origin VARCHAR(5) NOT NULL, spec_destination VARCHAR(5) NOT NULL, spec_arrival_deadline DATE NOT NULL, transport_status VARCHAR(20) NOT NULL, routing_status VARCHAR(20) NOT NULL, misdirected BOOLEAN NOT NULL, unloaded_at_destination BOOLEAN NOT NULL, eta TIMESTAMP, last_event_type VARCHAR(10), last_event_location VARCHAR(5), last_event_voyage VARCHAR(20), last_event_time TIMESTAMP, next_activity_type VARCHAR(10), next_activity_location VARCHAR(5), next_activity_voyage VARCHAR(20), calculated_at TIMESTAMP NOT NULL, version BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS cargo_routing_status ON cargo (routing_status);
CREATE TABLE IF NOT EXISTS cargo_leg (tracking_id VARCHAR(16) NOT NULL REFERENCES cargo (tracking_id), position INTEGER NOT NULL, voyage_number VARCHAR(20) NOT NULL, load_location VARCHAR(5) NOT NULL, unload_location VARCHAR(5) NOT NULL, load_time TIMESTAMP NOT NULL, unload_time TIMESTAMP NOT NULL, PRIMARY KEY (tracking_id, position));
CREATE TABLE IF NOT EXISTS handling_event (id VARCHAR(36) NOT NULL PRIMARY KEY, tracking_id VARCHAR(16) NOT NULL, event_type VARCHAR(10) NOT NULL, location VARCHAR(5) NOT NULL, voyage_number VARCHAR(20), completion_time TIMESTAMP NOT NULL, registration_time TIMESTAMP NOT NULL);
CREATE INDEX IF NOT EXISTS handling_event_cargo ON handling_event (tracking_id);
CREATE TABLE IF NOT EXISTS handling_import (id VARCHAR(36) NOT NULL PRIMARY KEY, execution_id BIGINT NOT NULL, uploaded_at TIMESTAMP NOT NULL, file_path VARCHAR(500) NOT NULL);
CREATE TABLE IF NOT EXISTS imported_line (id VARCHAR(36) NOT NULL PRIMARY KEY, import_id VARCHAR(36) NOT NULL, line_number INTEGER NOT NULL, outcome VARCHAR(10) NOT NULL, message VARCHAR(500), raw_line VARCHAR(1000) NOT NULL);
CREATE INDEX IF NOT EXISTS imported_line_import ON imported_line (import_id);
