//! The lessons a block may embed (`learn = <id>`): each lesson's id and how many steps it has,
//! read from `content/lessons.json`, compiled in, with the app's types
//! (`lockstep_view::content`). Only those two facts: the lessons' text and their checks against
//! the simulation belong to `lockstep-view`.

use lockstep_view::content;

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

    /// Reads a lessons file with the app's own types (`lockstep_view::content::Lessons`).
    fn parse(json: &str) -> Result<Lessons, String> {
        let file: content::Lessons =
            serde_json::from_str(json).map_err(|e| format!("content/lessons.json: {e}"))?;
        let lessons = file
            .lessons
            .into_iter()
            .map(|lesson| (lesson.id, lesson.steps.len()))
            .collect();
        Ok(Lessons { lessons })
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
        let lessons = Lessons::embedded().expect("the shipped lessons read");
        let file: content::Lessons = serde_json::from_str(LESSONS_JSON).expect("typed");
        let first = &file.lessons[0];
        assert_eq!(lessons.steps(&first.id), Some(first.steps.len()));
        assert_eq!(lessons.ids().len(), file.lessons.len());
        assert_eq!(lessons.steps("no-such-lesson"), None);
        assert!(Lessons::parse(r#"{"lessons": [{"id": "a"}]}"#).is_err());
    }
}
