//! The lessons a block may embed (`learn = <id>`): each lesson's id and how many steps it has,
//! read from the app's `content/lessons.json`, compiled in. Only those two facts: the lessons'
//! text and their checks against the simulation belong to the app (`src/content/`).

use serde_json::Value;

/// The lessons file as shipped.
const LESSONS_JSON: &str = include_str!("../../../content/lessons.json");

/// Every lesson's id with its number of steps, in file order.
pub struct Lessons {
    lessons: Vec<(String, usize)>,
}

impl Lessons {
    /// The shipped lessons; `Err` says what in the file could not be read.
    pub fn embedded() -> Result<Lessons, String> {
        Lessons::parse(LESSONS_JSON)
    }

    fn parse(json: &str) -> Result<Lessons, String> {
        let file: Value =
            serde_json::from_str(json).map_err(|e| format!("content/lessons.json: {e}"))?;
        let list = file
            .get("lessons")
            .and_then(Value::as_array)
            .ok_or("content/lessons.json: no `lessons` list")?;
        list.iter()
            .enumerate()
            .map(|(i, lesson)| {
                let id = lesson.get("id").and_then(Value::as_str);
                let steps = lesson.get("steps").and_then(Value::as_array);
                match (id, steps) {
                    (Some(id), Some(steps)) => Ok((id.to_string(), steps.len())),
                    _ => Err(format!(
                        "content/lessons.json: lessons[{i}] has no `id` or no `steps`"
                    )),
                }
            })
            .collect::<Result<Vec<_>, String>>()
            .map(|lessons| Lessons { lessons })
    }

    /// How many steps the lesson `id` has, if there is one.
    pub fn steps(&self, id: &str) -> Option<usize> {
        self.lessons
            .iter()
            .find(|(lesson, _)| lesson == id)
            .map(|(_, steps)| *steps)
    }

    pub fn ids(&self) -> Vec<&str> {
        self.lessons.iter().map(|(id, _)| id.as_str()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ids_and_step_counts() {
        let lessons =
            Lessons::parse(r#"{"lessons": [{"id": "a", "steps": [1, 2]}]}"#).expect("valid");
        assert_eq!(lessons.steps("a"), Some(2));
        assert_eq!(lessons.steps("b"), None);
        assert!(Lessons::parse(r#"{"lessons": [{"id": "a"}]}"#).is_err());
        assert!(Lessons::embedded().is_ok_and(|l| l.steps("fencing-tokens").is_some()));
    }
}
