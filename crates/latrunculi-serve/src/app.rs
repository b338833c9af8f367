//! The router, its shared state and the endpoints.
//!
//! | method and path | what |
//! |---|---|
//! | `GET /`, `/app.js`, `/app.css` | the page |
//! | `GET /api/rulesets` | the built-in rulesets |
//! | `GET /api/agents` | the agent kinds and their options |
//! | `GET /api/rules?ruleset=LABEL` | a ruleset's parameters in words |
//! | `POST /api/games` | a new game `{ruleset, white, black, fen?}` (`human` or an agent spec) |
//! | `GET /api/games/{id}` | a game |
//! | `POST /api/games/{id}/move` | a move `{move}` in the game's notation |
//! | `POST /api/games/{id}/agent` | the agent to move plays one move |
//! | `POST /api/games/{id}/undo` | take back `{plies}` (default 1) |
//! | `GET /api/games/{id}/record` | the record, as a file |
//! | `GET /api/files` | the games CSVs, records and models that may be opened |
//! | `GET /api/csv?path=P&offset=N&limit=N` | the games of a CSV; `POST /api/csv {text}` of an uploaded one |
//! | `POST /api/study` | a game for study: `{path, row?}` or `{text, kind: csv/record, row?}` |
//! | `POST /api/analyse` | an agent's analysis `{ruleset, moves?, fen?, agent}` |

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use latrunculi_rules::{Color, Position, Ruleset, Setup, splitmix64};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use tokio::sync::Semaphore;

use crate::Config;
use crate::agents::{self, Limits};
use crate::error::{ServeError, full_message};
use crate::files::{self, Folders};
use crate::game::{Game, Player};
use crate::study::{self, resolve_label};
use latrunculi_agents::Players;

const INDEX: &str = include_str!("../static/index.html");
const SCRIPT: &str = include_str!("../static/app.js");
const STYLE: &str = include_str!("../static/app.css");

/// The games in memory, oldest first.
#[derive(Default)]
struct Games {
    map: HashMap<String, Game>,
    order: VecDeque<String>,
    made: u64,
}

/// The server's state, shared by every request.
pub struct App {
    folders: Folders,
    limits: Limits,
    /// The player factory, refusing weights files.
    players: Players,
    max_games: usize,
    max_body: usize,
    games: Mutex<Games>,
    /// Agents thinking at once (the others wait their turn).
    thinking: Semaphore,
}

impl App {
    /// The state for `config`.
    pub fn new(config: &Config) -> Arc<App> {
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        Arc::new(App {
            folders: Folders::new(&config.root),
            limits: config.limits,
            players: config.players.clone().without_weight_files(),
            max_games: config.max_games.max(1),
            max_body: config.max_body,
            games: Mutex::new(Games::default()),
            thinking: Semaphore::new(cpus.max(2)),
        })
    }

    fn games(&self) -> MutexGuard<'_, Games> {
        // A panic while the lock was held cannot leave a game half-changed (each change
        // is one push or pop), so a poisoned lock is used as it is.
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn with_game<T>(&self, id: &str, f: impl FnOnce(&mut Game) -> Result<T, ServeError>) -> Result<T, ServeError> {
        let mut games = self.games();
        let game = games.map.get_mut(id).ok_or_else(|| ServeError::NoGame(id.to_string()))?;
        f(game)
    }

    fn insert(&self, make: impl FnOnce(String, u64) -> Game) -> Game {
        let mut games = self.games();
        games.made += 1;
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        let seed = splitmix64(nanos ^ games.made.wrapping_mul(0xA076_1D64_78BD_642F));
        let id = format!("{:016x}", splitmix64(seed));
        let game = make(id.clone(), seed);
        while games.map.len() >= self.max_games {
            match games.order.pop_front() {
                Some(old) => {
                    games.map.remove(&old);
                }
                None => break,
            }
        }
        games.map.insert(id.clone(), game.clone());
        games.order.push_back(id);
        game
    }
}

/// The router of the web app.
pub fn router(app: Arc<App>) -> Router {
    let max_body = app.max_body;
    Router::new()
        .route("/", get(|| async { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX) }))
        .route("/app.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT) }))
        .route("/app.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE) }))
        .route("/api/rulesets", get(rulesets))
        .route("/api/agents", get(agent_kinds))
        .route("/api/rules", get(rules))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/move", post(human_move))
        .route("/api/games/{id}/agent", post(agent_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/record", get(record))
        .route("/api/files", get(list_files))
        .route("/api/csv", get(csv_file).post(csv_upload))
        .route("/api/study", post(open_study))
        .route("/api/analyse", post(analyse))
        .fallback(|uri: Uri| async move { ServeError::NoRoute(uri.path().to_string()) })
        .method_not_allowed_fallback(|uri: Uri| async move {
            let msg = format!("{} does not take this method", uri.path());
            (StatusCode::METHOD_NOT_ALLOWED, Json(serde_json::json!({ "error": msg })))
        })
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(app)
}

type Shared = State<Arc<App>>;
type Body = Result<Bytes, BytesRejection>;

/// The JSON body, or a clear error; an empty body reads as `{}`.
fn json<T: DeserializeOwned>(body: Body) -> Result<T, ServeError> {
    let bytes = body.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ServeError::TooLarge(e.body_text()),
        _ => ServeError::BadRequest(e.body_text()),
    })?;
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) { b"{}" } else { &bytes };
    serde_json::from_slice(bytes).map_err(|e| ServeError::BadRequest(format!("the body is not the JSON expected: {e}")))
}

fn path_id(p: Result<Path<String>, PathRejection>) -> Result<String, ServeError> {
    p.map(|Path(id)| id).map_err(|e| ServeError::BadRequest(e.body_text()))
}

fn query(q: Result<Query<HashMap<String, String>>, QueryRejection>) -> Result<HashMap<String, String>, ServeError> {
    q.map(|Query(m)| m).map_err(|e| ServeError::BadRequest(e.body_text()))
}

/// `12+D` or `16+D in hand`.
fn pieces_text(rs: &Ruleset) -> String {
    let (hs, hd) = rs.in_hand();
    if hs > 0 {
        return format!("{hs}{} in hand", if hd > 0 { "+D" } else { "" });
    }
    let pieces = rs.initial_pieces().unwrap_or_default();
    let n = |k| pieces.iter().filter(|(c, pk, _)| *c == Color::White && *pk == k).count();
    let d = n(latrunculi_rules::PieceKind::Dux);
    format!("{}{}", n(latrunculi_rules::PieceKind::Soldier), if d > 0 { "+D" } else { "" })
}

async fn rulesets() -> Json<serde_json::Value> {
    let list: Vec<_> = Ruleset::all_builtin()
        .iter()
        .map(|rs| {
            serde_json::json!({
                "id": rs.id, "name": rs.name, "source": rs.source,
                "board": format!("{}x{}", rs.width, rs.height),
                "other_boards": rs.other_boards, "pieces": pieces_text(rs),
            })
        })
        .collect();
    Json(serde_json::json!(list))
}

async fn agent_kinds(State(app): Shared) -> Json<serde_json::Value> {
    let kinds: Vec<_> = app
        .players
        .kinds()
        .iter()
        .map(|k| {
            let options: Vec<_> =
                k.options.iter().map(|o| serde_json::json!({ "key": o.key, "meaning": o.meaning })).collect();
            serde_json::json!({ "name": k.name, "summary": k.summary, "usage": k.usage(), "options": options })
        })
        .collect();
    Json(serde_json::json!({
        "kinds": kinds,
        "examples": ["random", "greedy", "mcts:sims=200", "alphabeta:depth=2", "alphabeta:ms=300"],
        "think_ms": app.limits.think_ms,
        "max_sims": app.limits.max_sims,
    }))
}

async fn rules(
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Json<serde_json::Value>, ServeError> {
    let q = query(q)?;
    let label = q.get("ruleset").ok_or_else(|| ServeError::BadRequest("give ?ruleset=LABEL".to_string()))?;
    let (label, rs) = resolve_label(label)?;
    let params: Vec<_> = rs
        .describe()
        .into_iter()
        .map(|p| {
            serde_json::json!({
                "table": p.table, "key": p.key, "value": p.value,
                "meaning": p.meaning, "value_meaning": p.value_meaning,
            })
        })
        .collect();
    Ok(Json(serde_json::json!({
        "label": label, "id": rs.id, "name": rs.name, "source": rs.source,
        "board": format!("{}x{}", rs.width, rs.height), "pieces": pieces_text(&rs), "params": params,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    ruleset: String,
    #[serde(default = "human")]
    white: String,
    #[serde(default = "human")]
    black: String,
    #[serde(default)]
    fen: Option<String>,
}

fn human() -> String {
    "human".to_string()
}

/// The start position of `rs`, or the position of `fen`.
fn start_position(rs: &Ruleset, fen: Option<&str>) -> Result<Position, ServeError> {
    match fen.map(str::trim).filter(|f| !f.is_empty()) {
        None => Ok(Position::new(rs)),
        Some(f) => {
            let bad = |message: String| ServeError::Fen { fen: f.to_string(), message };
            let setup = Setup::parse(f).map_err(|e| bad(full_message(&e)))?;
            Position::from_setup(rs, &setup).map_err(|e| bad(full_message(&e)))
        }
    }
}

fn player(app: &App, text: &str, rs: &Ruleset) -> Result<Player, ServeError> {
    if text.trim().eq_ignore_ascii_case("human") {
        return Ok(Player::Human);
    }
    agents::checked_spec(&app.players, text, rs, &app.limits, &app.folders).map(Player::Agent)
}

async fn new_game(State(app): Shared, body: Body) -> Result<Response, ServeError> {
    let req: NewGame = json(body)?;
    let (label, rs) = resolve_label(&req.ruleset)?;
    let start = start_position(&rs, req.fen.as_deref())?;
    let players = [player(&app, &req.white, &rs)?, player(&app, &req.black, &rs)?];
    let game = app.insert(|id, seed| Game::new(id, label, rs, players, start, seed));
    Ok((StatusCode::CREATED, Json(game.view())).into_response())
}

async fn get_game(State(app): Shared, id: Result<Path<String>, PathRejection>) -> Result<Response, ServeError> {
    let id = path_id(id)?;
    app.with_game(&id, |g| Ok(Json(g.view()).into_response()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    token: String,
}

async fn human_move(
    State(app): Shared,
    id: Result<Path<String>, PathRejection>,
    body: Body,
) -> Result<Response, ServeError> {
    let id = path_id(id)?;
    let req: MoveRequest = json(body)?;
    app.with_game(&id, |g| {
        if let Player::Agent(spec) = g.to_move()
            && !g.position().is_over()
        {
            return Err(ServeError::Conflict(format!(
                "{} is played by the agent {spec}; ask it to move (POST /api/games/{id}/agent)",
                g.position().side_to_move()
            )));
        }
        let mut next = g.clone();
        next.play_token(&req.token)?;
        *g = next;
        Ok(Json(g.view()).into_response())
    })
}

async fn agent_move(State(app): Shared, id: Result<Path<String>, PathRejection>) -> Result<Response, ServeError> {
    let id = path_id(id)?;
    let (spec, rs, pos, seed, ply) = app.with_game(&id, |g| {
        let pos = g.position().clone();
        if let Some(o) = pos.outcome() {
            return Err(ServeError::Conflict(format!("the game is over: {}", crate::game::outcome_text(o))));
        }
        match g.to_move() {
            Player::Agent(spec) => Ok((spec.clone(), g.ruleset.clone(), pos, g.seed, g.plies.len())),
            Player::Human => Err(ServeError::Conflict(format!(
                "{} is played by a person here; send a move (POST /api/games/{id}/move)",
                pos.side_to_move()
            ))),
        }
    })?;
    let _permit = app.thinking.acquire().await.map_err(|e| ServeError::AgentFailed(e.to_string()))?;
    let seed = agents::ply_seed(seed, ply);
    let mv = agents::run_bounded(&app.limits, move || agents::choose(&spec, &rs, &pos, seed)).await?;
    app.with_game(&id, |g| {
        if g.plies.len() != ply {
            return Err(ServeError::Conflict("the game changed while the agent was thinking".to_string()));
        }
        g.play(mv)?;
        Ok(Json(g.view()).into_response())
    })
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct UndoRequest {
    #[serde(default)]
    plies: Option<usize>,
}

async fn undo(State(app): Shared, id: Result<Path<String>, PathRejection>, body: Body) -> Result<Response, ServeError> {
    let id = path_id(id)?;
    let req: UndoRequest = json(body)?;
    app.with_game(&id, |g| {
        g.undo(req.plies.unwrap_or(1));
        Ok(Json(g.view()).into_response())
    })
}

async fn record(State(app): Shared, id: Result<Path<String>, PathRejection>) -> Result<Response, ServeError> {
    let id = path_id(id)?;
    app.with_game(&id, |g| {
        let name = format!("attachment; filename=\"latrunculi-{}.txt\"", g.id);
        Ok((
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()), (header::CONTENT_DISPOSITION, name)],
            g.record(),
        )
            .into_response())
    })
}

async fn list_files(State(app): Shared) -> Result<Json<files::Listing>, ServeError> {
    let folders = app.folders.clone();
    let listing = tokio::task::spawn_blocking(move || folders.list())
        .await
        .map_err(|e| ServeError::AgentFailed(e.to_string()))?;
    Ok(Json(listing))
}

fn page_bounds(offset: Option<&String>, limit: Option<&String>) -> Result<(usize, usize), ServeError> {
    let num = |v: Option<&String>, default: usize, what: &str| match v {
        None => Ok(default),
        Some(v) => {
            v.trim().parse::<usize>().map_err(|_| ServeError::BadRequest(format!("{what} '{v}' is not a number")))
        }
    };
    Ok((num(offset, 0, "offset")?, num(limit, 500, "limit")?.min(5000)))
}

async fn csv_file(
    State(app): Shared,
    q: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Json<files::CsvPage>, ServeError> {
    let q = query(q)?;
    let path = q.get("path").ok_or_else(|| ServeError::BadRequest("give ?path=FILE".to_string()))?.clone();
    let (offset, limit) = page_bounds(q.get("offset"), q.get("limit"))?;
    let folders = app.folders.clone();
    let page = tokio::task::spawn_blocking(move || {
        let bytes = files::read(&folders, &path)?;
        files::csv_page(&path, &bytes, offset, limit)
    })
    .await
    .map_err(|e| ServeError::AgentFailed(e.to_string()))??;
    Ok(Json(page))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CsvUpload {
    text: String,
    #[serde(default)]
    offset: Option<usize>,
    #[serde(default)]
    limit: Option<usize>,
}

async fn csv_upload(body: Body) -> Result<Json<files::CsvPage>, ServeError> {
    let req: CsvUpload = json(body)?;
    let page = tokio::task::spawn_blocking(move || {
        files::csv_page("upload", req.text.as_bytes(), req.offset.unwrap_or(0), req.limit.unwrap_or(500).min(5000))
    })
    .await
    .map_err(|e| ServeError::AgentFailed(e.to_string()))??;
    Ok(Json(page))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StudyRequest {
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    text: Option<String>,
    /// `csv` or `record`, for uploaded text.
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    row: Option<usize>,
}

async fn open_study(State(app): Shared, body: Body) -> Result<Response, ServeError> {
    let req: StudyRequest = json(body)?;
    let folders = app.folders.clone();
    let view = tokio::task::spawn_blocking(move || {
        let (name, text, csv) = match (&req.path, req.text) {
            (Some(path), None) => (path.clone(), files::read(&folders, path)?, path.ends_with(".csv")),
            (None, Some(text)) => {
                let csv = match req.kind.as_deref() {
                    Some("csv") => true,
                    Some("record") => false,
                    other => {
                        return Err(ServeError::BadRequest(format!(
                            "kind must be csv or record for uploaded text, not {other:?}"
                        )));
                    }
                };
                ("upload".to_string(), text.into_bytes(), csv)
            }
            _ => return Err(ServeError::BadRequest("give either path or text (with kind)".to_string())),
        };
        if csv {
            let row = req.row.unwrap_or(0);
            let game = files::csv_row(&name, &text, row)?;
            study::from_row(format!("{name} row {row}"), &game)
        } else {
            let text = String::from_utf8(text).map_err(|_| ServeError::BadFile {
                source_name: name.clone(),
                message: "not UTF-8 text".to_string(),
            })?;
            study::from_record(name, &text)
        }
    })
    .await
    .map_err(|e| ServeError::AgentFailed(e.to_string()))??;
    Ok(Json(view).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseRequest {
    ruleset: String,
    agent: String,
    #[serde(default)]
    fen: Option<String>,
    /// Moves from the start (or from `fen`), in the game's notation.
    #[serde(default)]
    moves: Vec<String>,
}

async fn analyse(State(app): Shared, body: Body) -> Result<Response, ServeError> {
    let req: AnalyseRequest = json(body)?;
    let (label, rs) = resolve_label(&req.ruleset)?;
    let start = start_position(&rs, req.fen.as_deref())?;
    let spec = agents::checked_spec(&app.players, &req.agent, &rs, &app.limits, &app.folders)?;
    let mut game = Game::new(String::new(), label, rs.clone(), [Player::Human, Player::Human], start, 0);
    for token in &req.moves {
        game.play_token(token)?;
    }
    let pos = game.position().clone();
    if let Some(o) = pos.outcome() {
        return Err(ServeError::Conflict(format!(
            "the game is over here ({}); nothing to analyse",
            crate::game::outcome_text(o)
        )));
    }
    let _permit = app.thinking.acquire().await.map_err(|e| ServeError::AgentFailed(e.to_string()))?;
    let seed = agents::ply_seed(pos.hash(), 0);
    let analysis = agents::run_bounded(&app.limits, move || agents::analyse(&spec, &rs, &pos, seed)).await?;
    Ok(Json(analysis).into_response())
}
