//! `deckwright odds ruunara DICE [--cover] [--kill-on K] [--hp N] [--damage D] [--json]`.

use std::process::ExitCode;

use super::limits::MAX_ODDS_DICE;
use super::{BadInput, Context, Outcome};
use crate::games::ruunara::model::{Dice, MAX_DAMAGE};
use crate::games::ruunara::odds::{Attack, odds};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game (ruunara).
    pub game: String,
    /// The attack, `nD k+` (e.g. 3D4+).
    pub dice: String,
    /// The target is under cover (each ranged hit is cancelled on 3+).
    #[arg(long)]
    pub cover: bool,
    /// An instant kill on this face or more.
    #[arg(long, value_name = "K")]
    pub kill_on: Option<u8>,
    /// The target's hit points (adds the chance to kill).
    #[arg(long, value_name = "N")]
    pub hp: Option<u32>,
    /// Hit points each hit costs (a skill's `damage`, 1 to 10).
    #[arg(long, value_name = "D", default_value_t = 1)]
    pub damage: u32,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    if args.game != "ruunara" {
        return Err(BadInput(format!(
            "`odds` knows only ruunara, not `{}`",
            args.game
        )));
    }
    let dice = Dice::parse(&args.dice).ok_or_else(|| {
        BadInput(format!(
            "`{}` is not a dice string; write nD k+ as in 3D4+",
            args.dice
        ))
    })?;
    if dice.count > MAX_ODDS_DICE {
        return Err(BadInput(format!(
            "{} dice is more than the {MAX_ODDS_DICE} the calculator takes",
            dice.count
        )));
    }
    if let Some(k) = args.kill_on
        && !(1..=6).contains(&k)
    {
        return Err(BadInput(format!(
            "--kill-on takes a face from 1 to 6, not {k}"
        )));
    }
    if !(1..=MAX_DAMAGE).contains(&args.damage) {
        return Err(BadInput(format!(
            "--damage takes hit points from 1 to {MAX_DAMAGE}, not {}",
            args.damage
        )));
    }
    let attack = Attack {
        dice,
        cover: args.cover,
        kill_on: args.kill_on,
        hp: args.hp,
        damage: args.damage,
    };
    let o = odds(&attack);
    let out = &ctx.out;
    if args.json {
        let mut v = serde_json::json!({
            "dice": dice.to_string(),
            "cover": args.cover,
            "distribution": o.distribution,
            "expected_hits": o.expected_hits,
        });
        if let Some(k) = o.kill_chance {
            v["kill_chance"] = serde_json::json!(k);
            v["hp"] = serde_json::json!(args.hp);
            v["kill_on"] = serde_json::json!(args.kill_on);
            v["damage"] = serde_json::json!(args.damage);
        }
        out.json(&v);
    } else {
        writeln!(
            out,
            "{dice}{}",
            if args.cover { " against cover" } else { "" }
        );
        writeln!(out, "hits  probability");
        for (h, p) in o.distribution.iter().enumerate() {
            writeln!(
                out,
                "{h:>4}  {:>6.2}%  {}",
                p * 100.0,
                "#".repeat((p * 40.0).round() as usize)
            );
        }
        writeln!(out, "expected hits: {:.3}", o.expected_hits);
        if let Some(k) = o.kill_chance {
            if args.damage > 1 {
                writeln!(out, "{} hit points a hit", args.damage);
            }
            writeln!(out, "chance to kill: {:.2}%", k * 100.0);
        }
    }
    Ok(ExitCode::SUCCESS)
}
