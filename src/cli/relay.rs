//! `deckwright relay [--listen ADDR] [--tap FILE]`: runs a relay (`net::relay`) until it is
//! stopped, for hosts that friends cannot reach directly. The first line on stdout is the
//! relay's address line (`dwr1/ADDRESS/FINGERPRINT`), which a host passes to
//! `deckwright host GAME ... --relay LINE`; the join code the host then prints names the
//! relay and the host's room. The relay splices each joiner's stream to the host's own
//! connection; the two run TLS 1.3 end to end inside it, so the relay reads nothing.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::out::note;
use crate::cli::{BadInput, Context, Outcome};
use crate::net::relay::{MAX_ROOM_PEERS, MAX_ROOMS, Relay};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to listen (UDP). Default: every interface, port 4433. Friends and hosts must
    /// reach this address (forward its port, or run the relay on a server).
    #[arg(long, value_name = "ADDR", default_value = "0.0.0.0:4433")]
    pub listen: SocketAddr,
    /// Append every byte the relay forwards to this file (to see what a relay can see: the
    /// TLS records between peers and hosts, nothing in clear).
    #[arg(long, value_name = "FILE")]
    pub tap: Option<PathBuf>,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let relay =
        Relay::start(args.listen, args.tap.as_deref()).map_err(|e| BadInput(e.to_string()))?;
    writeln!(ctx.out, "{}", relay.address());
    ctx.out.flush();
    note!(
        "relaying ({MAX_ROOMS} rooms of {MAX_ROOM_PEERS} peers at most); hosts add: --relay {}",
        relay.address()
    );
    relay.run();
    Ok(ExitCode::SUCCESS)
}
