//! Every endpoint of the web app through its router (no socket): good requests, the bad
//! inputs the page may send (unknown rulesets, illegal moves, malformed FEN, records and
//! CSVs, paths outside the allowed folders), and random bytes and JSON, none of which
//! may get a 5xx answer or change a game.

use std::path::PathBuf;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use latrunculi_rules::FastRng;
use latrunculi_serve::{App, Config, router};
use serde_json::{Value, json};
use tower::ServiceExt as _;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn app_with(config: Config) -> Router {
    router(App::new(&Config { root: root(), ..config }))
}

/// The app with the players the `latrunculi` command gives it (the `az` kind included).
fn app() -> Router {
    app_with(Config { players: latrunculi_az::players(), ..Config::default() })
}

/// Sends a request; returns the status and the body (JSON, or a string for text).
async fn send(app: &Router, method: Method, uri: &str, body: Option<Vec<u8>>) -> (StatusCode, Value, String) {
    let mut req = Request::builder().method(method).uri(uri);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let req = req.body(body.map(Body::from).unwrap_or_else(Body::empty)).expect("a request");
    let res = app.clone().oneshot(req).await.expect("infallible");
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 64 << 20).await.expect("a body");
    let text = String::from_utf8_lossy(&bytes).to_string();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null), text)
}

async fn get(app: &Router, uri: &str) -> (StatusCode, Value) {
    let (s, v, _) = send(app, Method::GET, uri, None).await;
    (s, v)
}

async fn post(app: &Router, uri: &str, body: Value) -> (StatusCode, Value) {
    let (s, v, _) = send(app, Method::POST, uri, Some(body.to_string().into_bytes())).await;
    (s, v)
}

fn error(v: &Value) -> String {
    v["error"].as_str().unwrap_or_else(|| panic!("no error in {v}")).to_string()
}

async fn new_game(app: &Router, ruleset: &str, white: &str, black: &str) -> Value {
    let (s, g) = post(app, "/api/games", json!({ "ruleset": ruleset, "white": white, "black": black })).await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    g
}

#[tokio::test]
async fn the_page_is_served_from_the_binary() {
    let app = app();
    for (uri, needle) in [("/", "<svg id=\"board\""), ("/app.js", "drawBoard"), ("/app.css", ".sq-light")] {
        let (s, _, text) = send(&app, Method::GET, uri, None).await;
        assert_eq!(s, StatusCode::OK);
        assert!(text.contains(needle), "{uri}");
    }
    let (s, v) = get(&app, "/no/such/page").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(error(&v).contains("/no/such/page"));
    let (s, _, _) = send(&app, Method::DELETE, "/api/games", None).await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn rulesets_agents_and_rules_are_listed() {
    let app = app();
    let (s, v) = get(&app, "/api/rulesets").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v.as_array().map(Vec::len), Some(42));
    assert!(v.as_array().unwrap().iter().any(|r| r["id"] == "xxi" && r["board"] == "10x8" && r["pieces"] == "10+D"));
    let (s, v) = get(&app, "/api/agents").await;
    assert_eq!(s, StatusCode::OK);
    let names: Vec<&str> = v["kinds"].as_array().unwrap().iter().filter_map(|k| k["name"].as_str()).collect();
    assert!(names.contains(&"alphabeta") && names.contains(&"random"), "{names:?}");
    assert!(names.contains(&"az"), "the kinds of the players the server is given: {names:?}");
    let (_, v) = get(&app_with(Config::default()), "/api/agents").await;
    let names: Vec<&str> = v["kinds"].as_array().unwrap().iter().filter_map(|k| k["name"].as_str()).collect();
    assert!(!names.contains(&"az"), "the default players have no networks: {names:?}");

    let (s, v) = get(&app, "/api/rules?ruleset=kowalski%2Bend.no_capture_limit%3D120").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["label"], "kowalski+end.no_capture_limit=120");
    let limit = v["params"].as_array().unwrap().iter().find(|p| p["key"] == "end.no_capture_limit").cloned();
    assert_eq!(limit.as_ref().map(|p| p["value"].clone()), Some(json!("120")));
    assert!(limit.unwrap()["meaning"].as_str().unwrap().contains("without a capture"));
    let soldier = v["params"].as_array().unwrap().iter().find(|p| p["key"] == "movement.soldier").cloned().unwrap();
    assert!(soldier["value_meaning"].as_str().is_some(), "{soldier}");
    for (uri, needle) in [
        ("/api/rules?ruleset=nosuch", "unknown ruleset 'nosuch'"),
        ("/api/rules?ruleset=%2Fetc%2Fpasswd", "not read here"),
        ("/api/rules?ruleset=xxi%4099x99", "xxi"),
        ("/api/rules?ruleset=xxi%2Bend.nokey%3D1", "nokey"),
        ("/api/rules", "?ruleset="),
    ] {
        let (s, v) = get(&app, uri).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{uri}");
        assert!(error(&v).contains(needle), "{uri}: {v}");
    }
}

#[tokio::test]
async fn a_game_against_random_is_played_to_its_end() {
    let app = app();
    let g = new_game(&app, "xxi", "human", "random").await;
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["board"]["side_to_move"], "white");
    assert!(!g["agent_to_move"].as_bool().unwrap());
    let mut plies = 0;
    let mut state = g;
    while state["board"]["outcome"].is_null() {
        if state["agent_to_move"].as_bool().unwrap() {
            let (s, v) = post(&app, &format!("/api/games/{id}/agent"), json!({})).await;
            assert_eq!(s, StatusCode::OK, "{v}");
            state = v;
        } else {
            let mv = state["legal"][0]["text"].as_str().unwrap().to_string();
            let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({ "move": mv })).await;
            assert_eq!(s, StatusCode::OK, "{v}");
            state = v;
        }
        plies += 1;
        assert!(plies <= 1000, "the ply cap ends every game");
    }
    assert_eq!(state["moves"].as_array().unwrap().len(), plies);
    assert!(state["legal"].as_array().unwrap().is_empty());
    assert!(
        state["board"]["outcome"]["text"]
            .as_str()
            .unwrap()
            .contains(state["board"]["outcome"]["reason"].as_str().unwrap())
    );
    // Over: no more moves, and nothing changes.
    let (s, v) = post(&app, &format!("/api/games/{id}/agent"), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({ "move": "a1-a2" })).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error(&v).contains("over"), "{v}");
    // The record replays to the same end.
    let (s, _, text) = send(&app, Method::GET, &format!("/api/games/{id}/record"), None).await;
    assert_eq!(s, StatusCode::OK);
    let record = latrunculi_rules::GameRecord::parse(&text).expect("a record");
    let report = latrunculi_rules::replay(&record, Default::default()).expect("replays");
    assert!(report.is_ok(), "{text}");
    assert_eq!(report.final_fen, state["board"]["fen"].as_str().unwrap());
}

#[tokio::test]
async fn illegal_moves_and_wrong_turns_change_nothing() {
    let app = app();
    let g = new_game(&app, "xxi", "human", "greedy").await;
    let id = g["id"].as_str().unwrap();
    let fen = g["board"]["fen"].clone();
    for (body, status, needle) in [
        (json!({ "move": "a8-a5" }), StatusCode::UNPROCESSABLE_ENTITY, "'a8-a5' (white to move, ply 0)"),
        (json!({ "move": "b8-c7" }), StatusCode::UNPROCESSABLE_ENTITY, "b8-c7"),
        (json!({ "move": "zz9" }), StatusCode::UNPROCESSABLE_ENTITY, "zz9"),
        (json!({ "move": "" }), StatusCode::UNPROCESSABLE_ENTITY, "move ''"),
        (json!({ "mv": "a1-a2" }), StatusCode::BAD_REQUEST, "JSON"),
        (json!([1, 2]), StatusCode::BAD_REQUEST, "JSON"),
    ] {
        let (s, v) = post(&app, &format!("/api/games/{id}/move"), body.clone()).await;
        assert_eq!(s, status, "{body}: {v}");
        assert!(error(&v).contains(needle), "{body}: {v}");
    }
    let (s, v, _) = send(&app, Method::POST, &format!("/api/games/{id}/move"), Some(b"{not json".to_vec())).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error(&v).contains("JSON"));
    // A person is to move: the agent endpoint refuses.
    let (s, v) = post(&app, &format!("/api/games/{id}/agent"), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(error(&v).contains("person"), "{v}");
    let (_, now) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(now["board"]["fen"], fen);
    // Then the agent is to move: a person's move is refused.
    let (s, _) = post(&app, &format!("/api/games/{id}/move"), json!({ "move": "a1-a5" })).await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({ "move": "b8-b5" })).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(error(&v).contains("greedy"), "{v}");
    // Unknown games.
    for uri in ["/api/games/nosuch", "/api/games/nosuch/record"] {
        let (s, v) = get(&app, uri).await;
        assert_eq!(s, StatusCode::NOT_FOUND);
        assert!(error(&v).contains("nosuch"));
    }
    for uri in ["/api/games/nosuch/move", "/api/games/nosuch/agent", "/api/games/nosuch/undo"] {
        let (s, _) = post(&app, uri, json!({ "move": "a1-a2" })).await;
        assert!(s == StatusCode::NOT_FOUND || s == StatusCode::BAD_REQUEST, "{uri}: {s}");
    }
}

#[tokio::test]
async fn undo_takes_plies_back() {
    let app = app();
    let g = new_game(&app, "xxi", "human", "human").await;
    let id = g["id"].as_str().unwrap();
    for mv in ["a1-a5", "b8-b5", "c1-c5"] {
        let (s, v) = post(&app, &format!("/api/games/{id}/move"), json!({ "move": mv })).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (_, v) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(v["movetext"], "1. a1-a5 b8-b5 2. c1-c5xb5");
    assert_eq!(v["moves"][2]["captured"], json!(["b5"]));
    let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["movetext"], "1. a1-a5 b8-b5");
    let (_, v) = post(&app, &format!("/api/games/{id}/undo"), json!({ "plies": 99 })).await;
    assert_eq!(v["movetext"], "");
    assert_eq!(v["board"]["fen"], g["board"]["fen"]);
    let (s, v) = post(&app, &format!("/api/games/{id}/undo"), json!({ "plies": -1 })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test]
async fn bad_games_are_refused_with_their_reason() {
    let app = app();
    for (body, status, needle) in [
        (json!({ "ruleset": "nosuch" }), StatusCode::BAD_REQUEST, "unknown ruleset"),
        (json!({ "ruleset": "../../etc/x.toml" }), StatusCode::BAD_REQUEST, "not read here"),
        (json!({ "ruleset": "xxi", "fen": "not a fen" }), StatusCode::BAD_REQUEST, "FEN 'not a fen'"),
        (json!({ "ruleset": "xxi", "fen": "8/8/8/8/8/8/8/8 w" }), StatusCode::BAD_REQUEST, "FEN"),
        (json!({ "ruleset": "xxi", "white": "alphazero" }), StatusCode::BAD_REQUEST, "unknown agent 'alphazero'"),
        (json!({ "ruleset": "xxi", "white": "alphabeta:depth=12" }), StatusCode::BAD_REQUEST, "alphabeta:ms="),
        (json!({ "ruleset": "xxi", "white": "mcts:sims=99999999" }), StatusCode::BAD_REQUEST, "simulations"),
        (
            json!({ "ruleset": "xxi", "white": "alphabeta:ms=5,eval=/etc/passwd.toml" }),
            StatusCode::BAD_REQUEST,
            "eval=PATH",
        ),
        (json!({ "ruleset": "xxi", "white": "az:model=/etc/passwd" }), StatusCode::FORBIDDEN, "data/ and experiments/"),
        (json!({ "ruleset": "xxi", "white": "az:model=../Cargo.toml" }), StatusCode::FORBIDDEN, ".."),
        (json!({ "ruleset": "xxi", "colour": "white" }), StatusCode::BAD_REQUEST, "unknown field"),
        (json!({}), StatusCode::BAD_REQUEST, "ruleset"),
    ] {
        let (s, v) = post(&app, "/api/games", body.clone()).await;
        assert_eq!(s, status, "{body}: {v}");
        assert!(error(&v).contains(needle), "{body}: {v}");
    }
    // A FEN, a board size and a parameter change are fine.
    let (s, v) = post(
        &app,
        "/api/games",
        json!({ "ruleset": "xxi", "fen": "s1ssssssss/4d5/10/S1S7/10/10/5D4/1S1SSSSSSS b - 0 3" }),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert!(v["record"].as_str().unwrap().contains("[FEN \"s1ssssssss"));
    let v = new_game(&app, "xxi@12x8+end.no_capture_limit=40", "alphabeta:ms=50000", "mcts:sims=10").await;
    assert_eq!(v["ruleset"], "xxi@12x8+end.no_capture_limit=40");
    assert_eq!(v["white"], "alphabeta:ms=3000", "the time is clamped");
    assert_eq!(v["board"]["width"], 12);
}

#[tokio::test]
async fn placements_removals_and_extra_plies_follow_the_rules() {
    // Every built-in ruleset: agents play; the page's legal moves are what the engine
    // lists, with placements from hand, removals of trapped pieces and extra plies.
    let app = app();
    let mut kinds = std::collections::BTreeSet::new();
    let mut pending = false;
    for id in latrunculi_rules::Ruleset::builtin_ids() {
        let g = new_game(&app, id, "random", "greedy").await;
        let gid = g["id"].as_str().unwrap().to_string();
        let mut state = g;
        for _ in 0..60 {
            if !state["board"]["outcome"].is_null() {
                break;
            }
            for m in state["legal"].as_array().unwrap() {
                kinds.insert(m["kind"].as_str().unwrap().to_string());
            }
            pending |= !state["board"]["pending"].is_null();
            let (s, v) = post(&app, &format!("/api/games/{gid}/agent"), json!({})).await;
            assert_eq!(s, StatusCode::OK, "{id}: {v}");
            state = v;
        }
        // The record of every game replays (labels of changed rulesets via the Label tag).
        let (s, v) = post(&app, "/api/study", json!({ "text": state["record"], "kind": "record" })).await;
        assert_eq!(s, StatusCode::OK, "{id}: {v}");
        assert_eq!(v["positions"].as_array().unwrap().len(), state["moves"].as_array().unwrap().len() + 1, "{id}");
        assert!(v["stopped"].is_null(), "{id}: {v}");
    }
    assert!(kinds.contains("place") && kinds.contains("move"), "{kinds:?}");
    assert!(pending || kinds.contains("remove"), "some ruleset grants an extra ply or removes: {kinds:?}");
}

#[tokio::test]
async fn committed_files_are_listed_and_opened_and_no_path_leaves_the_folders() {
    let app = app();
    let (s, files) = get(&app, "/api/files").await;
    assert_eq!(s, StatusCode::OK);
    let csvs: Vec<String> =
        files["games_csvs"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()).collect();
    assert!(files["records"].as_array().unwrap().iter().any(|r| r == "data/games/xxi/joyce-carrillo-2016-08.txt"));
    // The same files grouped by folder, for the Study view's list.
    let folders = files["folders"].as_array().expect("folders");
    let grouped: usize = folders.iter().map(|f| f["files"].as_array().unwrap().len()).sum();
    assert_eq!(grouped, csvs.len() + files["records"].as_array().unwrap().len());
    let games = folders.iter().find(|f| f["folder"] == "data/games").expect("the data/games folder");
    assert!(games["files"].as_array().unwrap().iter().any(|r| r == "data/games/xxi/joyce-carrillo-2016-08.txt"));
    let smallest = csvs
        .iter()
        .min_by_key(|p| std::fs::metadata(root().join(p)).map(|m| m.len()).unwrap_or(u64::MAX))
        .expect("a committed games CSV")
        .clone();
    let (s, page) = get(&app, &format!("/api/csv?path={smallest}&limit=3")).await;
    assert_eq!(s, StatusCode::OK, "{page}");
    assert!(page["rows"].as_array().unwrap().len() <= 3 && page["total"].as_u64().unwrap() >= 1);
    let (s, study) = post(&app, "/api/study", json!({ "path": smallest, "row": 0 })).await;
    assert_eq!(s, StatusCode::OK, "{study}");
    assert_eq!(study["agrees"], true, "{}", study["result"]);
    assert_eq!(study["moves"].as_array().unwrap().len() as u64, page["rows"][0]["plies"].as_u64().unwrap());

    let (s, v) = post(&app, "/api/study", json!({ "path": "data/games/xxi/joyce-carrillo-2016-08.txt" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["agrees"], true);
    assert_eq!(v["recorded"], "0-1");
    assert_eq!(v["positions"].as_array().unwrap().last().unwrap()["outcome"]["score"], "0-1");

    for (uri, status) in [
        ("/api/csv?path=../Cargo.toml", StatusCode::FORBIDDEN),
        ("/api/csv?path=data/../Cargo.toml", StatusCode::FORBIDDEN),
        ("/api/csv?path=/etc/passwd", StatusCode::FORBIDDEN),
        ("/api/csv?path=Cargo.toml", StatusCode::FORBIDDEN),
        ("/api/csv?path=data/no-such.csv", StatusCode::NOT_FOUND),
        ("/api/csv?path=data/games/README.md", StatusCode::BAD_REQUEST),
        ("/api/csv?path=data/games", StatusCode::FORBIDDEN),
        ("/api/csv", StatusCode::BAD_REQUEST),
        ("/api/csv?path=data/games/README.md&offset=x", StatusCode::BAD_REQUEST),
    ] {
        let (s, v) = get(&app, uri).await;
        assert_eq!(s, status, "{uri}: {v}");
        assert!(!error(&v).is_empty());
    }
    for (body, status) in [
        (json!({ "path": "../../etc/passwd" }), StatusCode::FORBIDDEN),
        (json!({ "path": "/etc/passwd" }), StatusCode::FORBIDDEN),
        (json!({ "path": smallest, "row": 999_999_999 }), StatusCode::BAD_REQUEST),
        (json!({ "path": "data/games/README.md" }), StatusCode::BAD_REQUEST),
        (json!({}), StatusCode::BAD_REQUEST),
        (json!({ "text": "x" }), StatusCode::BAD_REQUEST),
        (json!({ "text": "x", "kind": "pdf" }), StatusCode::BAD_REQUEST),
        (json!({ "text": "ruleset,x\n1,2\n", "kind": "csv" }), StatusCode::BAD_REQUEST),
        (json!({ "text": "[Ruleset \"nosuch\"]\n1. a1-a2", "kind": "record" }), StatusCode::BAD_REQUEST),
        (json!({ "text": "[Ruleset \"xxi\"\n1. a1-a2", "kind": "record" }), StatusCode::BAD_REQUEST),
    ] {
        let (s, v) = post(&app, "/api/study", body.clone()).await;
        assert_eq!(s, status, "{body}: {v}");
        assert!(!error(&v).is_empty());
    }
    // An uploaded record with an illegal move opens up to it and says where it stopped.
    let (s, v) =
        post(&app, "/api/study", json!({ "text": "[Ruleset \"xxi\"]\n1. a1-a5 a8-a1", "kind": "record" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["stopped"].as_str().unwrap().contains("a8-a1"), "{v}");
    assert_eq!(v["agrees"], false);
}

#[tokio::test]
async fn an_uploaded_csv_is_listed_and_opened() {
    let app = app();
    let g = new_game(&app, "xxi", "human", "human").await;
    let id = g["id"].as_str().unwrap();
    post(&app, &format!("/api/games/{id}/move"), json!({ "move": "e1-e6" })).await;
    let header = "ruleset,params_hash,game,seed,white,black,winner,reason,plies,captures_white,captures_black,pieces_white,pieces_black,first_capture_ply,moves";
    let csv = format!(
        "{header}\nxxi,0,0,1,a,b,draw,ply-cap,1,0,0,11,11,,e1-e6*\nxxi,0,1,1,a,b,draw,ply-cap,1,0,0,11,11,,e1-e9\n"
    );
    let (s, v) = post(&app, "/api/csv", json!({ "text": csv })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["total"], 2);
    let (s, v) = post(&app, "/api/study", json!({ "text": csv, "kind": "csv", "row": 0 })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"][0]["text"], "e1-e6*");
    let (s, v) = post(&app, "/api/study", json!({ "text": csv, "kind": "csv", "row": 1 })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["stopped"].as_str().unwrap().contains("e1-e9"));
    for bad in [json!({ "text": "a,b\n1,2" }), json!({ "text": format!("{header}\nxxi,0,x") }), json!({ "csv": "" })] {
        let (s, v) = post(&app, "/api/csv", bad.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
}

#[tokio::test]
async fn analyses_give_a_score_and_a_line() {
    let app = app();
    let (s, a) = post(
        &app,
        "/api/analyse",
        json!({ "ruleset": "xxi", "agent": "alphabeta:nodes=3000", "moves": ["a1-a5", "b8-b5"] }),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert_eq!(a["side"], "white");
    assert!(a["score"].is_i64() && a["depth"].as_u64().unwrap() >= 1 && !a["pv"].as_array().unwrap().is_empty());
    assert_eq!(a["pv"][0], a["best"]);
    let (s, a) = post(&app, "/api/analyse", json!({ "ruleset": "xxi", "agent": "mcts:sims=40" })).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert_eq!(a["heat"].as_array().unwrap().len(), 80);
    for (body, status, needle) in [
        (
            json!({ "ruleset": "xxi", "agent": "alphabeta:nodes=10", "moves": ["a1-a9"] }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "a1-a9",
        ),
        (json!({ "ruleset": "xxi", "agent": "nosuch" }), StatusCode::BAD_REQUEST, "unknown agent"),
        (json!({ "ruleset": "nosuch", "agent": "random" }), StatusCode::BAD_REQUEST, "unknown ruleset"),
        (json!({ "ruleset": "xxi", "agent": "random", "fen": "x/y" }), StatusCode::BAD_REQUEST, "FEN"),
        (json!({ "ruleset": "xxi" }), StatusCode::BAD_REQUEST, "agent"),
        (
            json!({ "ruleset": "xxi", "agent": "random", "moves": ["e1-e6", "b8-b4", "Df2-f7", "g8-g7", "d1-d7"] }),
            StatusCode::CONFLICT,
            "over",
        ),
    ] {
        let (s, v) = post(&app, "/api/analyse", body.clone()).await;
        assert_eq!(s, status, "{body}: {v}");
        assert!(error(&v).contains(needle), "{body}: {v}");
    }
}

#[tokio::test]
async fn a_network_gives_a_value_and_a_policy() {
    let app = app();
    let model = "experiments/az-v2-kowalski/latest.az";
    if !root().join(model).is_file() {
        return;
    }
    let (s, a) =
        post(&app, "/api/analyse", json!({ "ruleset": "kowalski", "agent": format!("az:model={model},sims=8") })).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    let v = a["value"].as_f64().expect("a value");
    assert!((-1.0..=1.0).contains(&v));
    let heat: f64 = a["heat"].as_array().unwrap().iter().filter_map(Value::as_f64).sum();
    assert!((heat - 1.0).abs() < 1e-3, "the policy sums to 1: {heat}");
    // A model for another board is refused.
    let (s, v) = post(&app, "/api/games", json!({ "ruleset": "xxi", "white": format!("az:model={model}") })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test]
async fn many_games_are_kept_and_the_oldest_dropped() {
    let small = app_with(Config { max_games: 5, ..Config::default() });
    let mut ids = Vec::new();
    for _ in 0..8 {
        ids.push(new_game(&small, "kowalski", "human", "random").await["id"].as_str().unwrap().to_string());
    }
    let mut ids_unique = ids.clone();
    ids_unique.sort();
    ids_unique.dedup();
    assert_eq!(ids_unique.len(), 8);
    for (i, id) in ids.iter().enumerate() {
        let (s, _) = get(&small, &format!("/api/games/{id}")).await;
        assert_eq!(s, if i < 3 { StatusCode::NOT_FOUND } else { StatusCode::OK }, "game {i}");
    }
    // Games at once: agents of several games think together.
    let app = app();
    let mut handles = Vec::new();
    for _ in 0..6 {
        let app = app.clone();
        handles.push(tokio::spawn(async move {
            let g = new_game(&app, "xxi", "greedy", "random").await;
            let id = g["id"].as_str().unwrap().to_string();
            for _ in 0..10 {
                let (s, v) = post(&app, &format!("/api/games/{id}/agent"), json!({})).await;
                assert!(s == StatusCode::OK || s == StatusCode::CONFLICT, "{v}");
            }
        }));
    }
    for h in handles {
        h.await.expect("no panic");
    }
}

#[tokio::test]
async fn a_large_body_is_refused() {
    let app = app_with(Config { max_body: 1000, ..Config::default() });
    let (s, v, _) = send(&app, Method::POST, "/api/csv", Some(vec![b' '; 5000])).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(error(&v).contains("too large"));
}

/// Random bytes, random JSON and mangled good requests at every endpoint: never a 5xx,
/// never a panic, and the games stay playable.
#[tokio::test]
async fn fuzzed_requests_never_crash_the_server() {
    let app = app();
    let g = new_game(&app, "xxi", "human", "random").await;
    let id = g["id"].as_str().unwrap().to_string();
    let uris = [
        "/api/games".to_string(),
        format!("/api/games/{id}/move"),
        format!("/api/games/{id}/agent"),
        format!("/api/games/{id}/undo"),
        "/api/csv".to_string(),
        "/api/study".to_string(),
        "/api/analyse".to_string(),
    ];
    let words = [
        "xxi",
        "kowalski@5x5",
        "ludii-seega-6x6",
        "schadler",
        "random",
        "greedy",
        "alphabeta:nodes=50",
        "human",
        "a1-a5",
        "@c3",
        "xe4",
        "De6-i6",
        "..",
        "/etc/passwd",
        "data/games",
        "experiments",
        "-1",
        "1e9",
        "",
        "\u{0}",
        "ruleset,params_hash",
        "[Ruleset \"xxi\"]",
        "mcts:sims=5",
        "az:model=x",
        "w:e4",
        "1/2-1/2",
        "@99x99",
    ];
    let keys = ["ruleset", "white", "black", "fen", "move", "plies", "path", "text", "kind", "row", "agent", "moves"];
    let mut rng = FastRng::new(37);
    for i in 0..1500 {
        let uri = &uris[rng.below(uris.len())];
        let body: Vec<u8> = match i % 3 {
            0 => (0..rng.below(64)).map(|_| rng.next_u64() as u8).collect(),
            1 => {
                let mut obj = serde_json::Map::new();
                for _ in 0..rng.below(5) {
                    let value = match rng.below(5) {
                        0 => json!(words[rng.below(words.len())]),
                        1 => json!(rng.next_u64() as i64 % 2000 - 1000),
                        2 => json!([words[rng.below(words.len())], words[rng.below(words.len())]]),
                        3 => Value::Null,
                        _ => json!({ "x": words[rng.below(words.len())] }),
                    };
                    obj.insert(keys[rng.below(keys.len())].to_string(), value);
                }
                Value::Object(obj).to_string().into_bytes()
            }
            _ => {
                let good =
                    json!({ "ruleset": words[rng.below(3)], "white": "random", "move": "a1-a5", "agent": "random",
                    "moves": ["a1-a5"], "path": "data/games/xxi/joyce-carrillo-2016-08.txt" })
                    .to_string()
                    .into_bytes();
                let mut b = good;
                for _ in 0..rng.below(4) {
                    if !b.is_empty() {
                        let at = rng.below(b.len());
                        b[at] = rng.next_u64() as u8;
                    }
                }
                b
            }
        };
        let (s, v, text) = send(&app, Method::POST, uri, Some(body.clone())).await;
        assert!(s.as_u16() < 500, "{uri} {:?}: {s} {text}", String::from_utf8_lossy(&body));
        if !s.is_success() {
            assert!(v["error"].is_string(), "{uri}: {text}");
        }
        // Query strings too.
        const SAFE: &[u8] = b"abcxyzDE0189-._~%/+=&?@:";
        let q: String = (0..rng.below(12)).map(|_| SAFE[rng.below(SAFE.len())] as char).collect();
        for base in ["/api/rules?ruleset=", "/api/csv?path=", "/api/games/"] {
            let (s, _, text) = send(&app, Method::GET, &format!("{base}{q}"), None).await;
            assert!(s.as_u16() < 500, "{base}{q}: {s} {text}");
        }
    }
    let (s, v) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}
