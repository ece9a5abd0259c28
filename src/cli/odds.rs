//! `deckwright odds ruunara DICE [--cover] [--kill-on K] [--hp N] [--json]`.

use std::process::ExitCode;

use super::{BadInput, Context, Outcome};
use crate::games::ruunara::model::Dice;
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
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_ctx: &Context, args: Args) -> Outcome {
    if args.game != "ruunara" {
        return Err(BadInput(format!("`odds` knows only ruunara, not `{}`", args.game)));
    }
    let dice = Dice::parse(&args.dice).ok_or_else(|| {
        BadInput(format!("`{}` is not a dice string; write nD k+ as in 3D4+", args.dice))
    })?;
    if dice.count > 1000 {
        return Err(BadInput(format!("{} dice is more than the 1000 the calculator takes", dice.count)));
    }
    if let Some(k) = args.kill_on {
        if !(1..=6).contains(&k) {
            return Err(BadInput(format!("--kill-on takes a face from 1 to 6, not {k}")));
        }
    }
    let attack = Attack { dice, cover: args.cover, kill_on: args.kill_on, hp: args.hp };
    let o = odds(&attack);
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
        }
        println!("{v}");
    } else {
        println!("{dice}{}", if args.cover { " against cover" } else { "" });
        println!("hits  probability");
        for (h, p) in o.distribution.iter().enumerate() {
            println!("{h:>4}  {:>6.2}%  {}", p * 100.0, "#".repeat((p * 40.0).round() as usize));
        }
        println!("expected hits: {:.3}", o.expected_hits);
        if let Some(k) = o.kill_chance {
            println!("chance to kill: {:.2}%", k * 100.0);
        }
    }
    Ok(ExitCode::SUCCESS)
}
