//! One JSON object per report.

use serde_json::{Map, Value as Json};

use super::{Exporter, Report};
use crate::error::{Error, Result};

/// JSON exporter: the run's settings under `settings`, every key figure under its key, tables
/// under `tables` as arrays of row objects, notes under `notes`.
pub struct JsonExporter;

/// The report as a JSON value.
pub fn to_json(report: &Report) -> Json {
    let mut obj = Map::new();
    obj.insert("title".into(), Json::String(report.title.clone()));
    if !report.settings.is_empty() {
        let settings: Map<String, Json> = report
            .settings
            .iter()
            .map(|f| (f.key.clone(), f.value.json()))
            .collect();
        obj.insert("settings".into(), Json::Object(settings));
    }
    for f in &report.fields {
        obj.insert(f.key.clone(), f.value.json());
    }
    let mut tables = Map::new();
    for t in &report.tables {
        let rows: Vec<Json> = t
            .rows
            .iter()
            .map(|row| {
                let mut r = Map::new();
                for (k, v) in t.columns.iter().zip(row) {
                    r.insert(k.clone(), v.json());
                }
                Json::Object(r)
            })
            .collect();
        if t.top_level {
            obj.insert(t.key.clone(), Json::Array(rows));
        } else {
            tables.insert(t.key.clone(), Json::Array(rows));
        }
    }
    if !tables.is_empty() {
        obj.insert("tables".into(), Json::Object(tables));
    }
    if !report.notes.is_empty() {
        obj.insert(
            "notes".into(),
            Json::Array(report.notes.iter().cloned().map(Json::String).collect()),
        );
    }
    Json::Object(obj)
}

impl Exporter for JsonExporter {
    fn render(&self, report: &Report) -> Result<String> {
        let mut s = serde_json::to_string_pretty(&to_json(report))
            .map_err(|e| Error::Internal(format!("JSON: {e}")))?;
        s.push('\n');
        Ok(s)
    }
}
